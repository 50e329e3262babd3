/** Site settings held as JSON values by key: texts (English and Nepali), logo, campaign switches. */
import { eq, inArray } from "drizzle-orm";
import { db, schema } from "@db/index";
import { nowIso } from "~/utils/time";

const { settings } = schema;

export function getSetting<T>(key: string, fallback: T): T {
  const row = db.select().from(settings).where(eq(settings.key, key)).get();
  if (!row) return fallback;
  try {
    return JSON.parse(row.value) as T;
  } catch {
    return fallback;
  }
}

export function setSetting(key: string, value: unknown) {
  const json = JSON.stringify(value);
  db.insert(settings)
    .values({ key, value: json })
    .onConflictDoUpdate({ target: settings.key, set: { value: json, updated_at: nowIso() } })
    .run();
}

export function getSettings(keys: string[]): Record<string, unknown> {
  const rows = db.select().from(settings).where(inArray(settings.key, keys)).all();
  const out: Record<string, unknown> = {};
  for (const r of rows) {
    try {
      out[r.key] = JSON.parse(r.value);
    } catch {
      out[r.key] = null;
    }
  }
  return out;
}

/** Public texts: `scheme`, `terms`, `policy` (HTML, English) with `_ne` twins in Nepali. */
export const TEXT_KEYS = ["scheme", "terms", "policy", "scheme_ne", "terms_ne", "policy_ne"] as const;

export function isRegistrationOpen(): boolean {
  return getSetting("registration_open", true) === true;
}

/** What GET /api/v1/settings answers: texts, logo and the campaign switch. */
export function publicSettings() {
  const values = getSettings([...TEXT_KEYS, "logo", "video", "registration_open"]);
  return {
    logo: (values.logo as string | null) ?? null,
    scheme: (values.scheme as string) ?? "",
    terms: (values.terms as string) ?? "",
    policy: (values.policy as string) ?? "",
    scheme_ne: (values.scheme_ne as string) ?? "",
    terms_ne: (values.terms_ne as string) ?? "",
    policy_ne: (values.policy_ne as string) ?? "",
    video: (values.video as string | null) ?? null,
    registration_open: values.registration_open !== false,
  };
}
