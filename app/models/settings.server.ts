/**
 * Site settings held as JSON values by key: the texts (English and Nepali),
 * the logo, the landing video and the campaign switch with its closed
 * message.
 *
 * Every read of the public site goes through the functions here
 * (`publicSettings`, `settingsText`, `isRegistrationOpen`, `landingSettings`,
 * `closedMessage`), so a cache of public reads belongs here too. A change
 * (`updateSettings`) is written with one audit row per changed setting, before
 * and after, in its own transaction: that trail is the settings' history, and
 * the back office shows the last change of each (`lastSettingChanges`).
 */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import { prepared } from "@db/prepared";
import {
  DEFAULT_CLOSED_MESSAGE,
  SETTING_FIELDS,
  SETTING_LABELS,
  TEXT_FIELDS,
  type SettingField,
  type SettingsInput,
  type TextField,
} from "~/schemas/settings";
import { isHttpUrl } from "~/schemas/video";
import { sha256 } from "~/utils/crypto.server";
import type { Lang } from "~/utils/i18n";
import { sanitizeRichText, toStoredHtml } from "~/utils/rich-text.server";
import { displayDateTime, nowIso } from "~/utils/time";
import { audit, diff } from "./audit.server";
import { fail, FailureError, type FieldErrors, type Result } from "~/utils/failure";
import { fileUrl, findPickerFile, FILE_ERRORS } from "./file.server";
import type { ScopedActor } from "./scope.server";
import { cachedPublic } from "./public-cache.server";
import { transact } from "./transaction.server";

const { settings } = schema;

const settingByKey = prepared((q) =>
  q
    .select()
    .from(settings)
    .where(eq(settings.key, sql.placeholder("key")))
    .prepare(),
);

export function getSetting<T>(key: string, fallback: T): T {
  const row = settingByKey(db).get({ key });
  if (!row) return fallback;
  try {
    return JSON.parse(row.value) as T;
  } catch {
    return fallback;
  }
}

/** A raw write without history: seeds and tests only. Screens and the API change settings with `updateSettings`. */
export function setSetting(key: string, value: unknown) {
  const json = JSON.stringify(value);
  db.insert(settings)
    .values({ key, value: json })
    .onConflictDoUpdate({ target: settings.key, set: { value: json, updated_at: nowIso() } })
    .run();
}

export function getSettings(keys: string[], exec: Executor = db): Record<string, unknown> {
  const rows = exec.select().from(settings).where(inArray(settings.key, keys)).all();
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

export function isRegistrationOpen(): boolean {
  return getSetting<unknown>("registration_open", true) !== false;
}

/** The settings as the back office edits them. */
export type SettingsValues = {
  logo: number | null;
  video: string | null;
  registration_open: boolean;
  closed_message: string;
  closed_message_ne: string;
} & Record<TextField, string>;

const asText = (v: unknown) => (typeof v === "string" ? v : "");

/** The stored values, each with its default when missing or unreadable. */
export function readSettings(exec: Executor = db): SettingsValues {
  const v = getSettings([...SETTING_FIELDS], exec);
  const logo =
    typeof v.logo === "number" ? v.logo : typeof v.logo === "string" && /^\d+$/.test(v.logo) ? +v.logo : null;
  const texts = Object.fromEntries(TEXT_FIELDS.map((k) => [k, asText(v[k])])) as Record<TextField, string>;
  return {
    logo,
    ...texts,
    video: typeof v.video === "string" && v.video ? v.video : null,
    registration_open: v.registration_open !== false,
    closed_message: asText(v.closed_message),
    closed_message_ne: asText(v.closed_message_ne),
  };
}

/** What GET /api/v1/settings answers: texts (sanitised), logo, video and the campaign switch. */
export function publicSettings() {
  return cachedPublic("settings:public", loadPublicSettings);
}

function loadPublicSettings() {
  const s = readSettings();
  const texts = Object.fromEntries(TEXT_FIELDS.map((k) => [k, sanitizeRichText(s[k])])) as Record<TextField, string>;
  return {
    logo: s.logo,
    logo_url: fileUrl(s.logo),
    ...texts,
    video: s.video,
    registration_open: s.registration_open,
    closed_message: s.closed_message || DEFAULT_CLOSED_MESSAGE,
    closed_message_ne: s.closed_message_ne,
  };
}

export type TextKey = "scheme" | "terms" | "policy";

/** The Nepali text when the visitor reads Nepali and one is set, else the English one; sanitised. */
export function settingsText(key: TextKey, lang: Lang): string {
  return cachedPublic(`settings:text:${key}:${lang}`, () => loadSettingsText(key, lang));
}

function loadSettingsText(key: TextKey, lang: Lang): string {
  const nepali = lang === "ne" ? getSetting<unknown>(`${key}_ne`, "") : "";
  const text = typeof nepali === "string" && nepali.trim() ? nepali : getSetting<unknown>(key, "");
  return typeof text === "string" ? sanitizeRichText(text) : "";
}

/**
 * Head office's own closed message for the landing page, in the visitor's
 * language (the English one when no Nepali one is written), or null while it
 * is the spec's banner, which the pre-registration form shows already.
 */
export function closedMessage(lang: Lang): string | null {
  const v = getSettings(["closed_message", "closed_message_ne"]);
  const en = asText(v.closed_message).trim();
  const ne = asText(v.closed_message_ne).trim();
  const message = (lang === "ne" && ne) || en;
  return message && message !== DEFAULT_CLOSED_MESSAGE ? message : null;
}

/** What the landing page shows besides the chrome: the video address and head office's closed message. */
export function landingSettings(lang: Lang): { video: string | null; closedMessage: string | null } {
  return cachedPublic(`settings:landing:${lang}`, () => loadLandingSettings(lang));
}

function loadLandingSettings(lang: Lang): { video: string | null; closedMessage: string | null } {
  const video = getSetting<unknown>("video", null);
  return { video: typeof video === "string" && isHttpUrl(video) ? video : null, closedMessage: closedMessage(lang) };
}

// ---------------------------------------------------------------- changes

/** A short fingerprint of a value, so a form can say which version it showed. */
export function settingVersion(value: unknown): string {
  return sha256(JSON.stringify(value ?? null)).slice(0, 16);
}

export function settingVersions(values: SettingsValues): Record<SettingField, string> {
  return Object.fromEntries(SETTING_FIELDS.map((k) => [k, settingVersion(values[k])])) as Record<SettingField, string>;
}

export const SETTINGS_ERRORS = {
  changedMeanwhile: (label: string, who: string) =>
    `${label} was changed by ${who} after you opened this page. Your version is kept below: save again to replace theirs, or reload the page to see theirs.`,
  conflict: "Some settings were changed by someone else after you opened this page.",
} as const;

const ENTITY = "setting";

/** The value a setting takes from a payload field (texts already converted to stored HTML). */
function nextValue(key: SettingField, input: SettingsInput, texts: Partial<Record<TextField, string>>): unknown {
  if ((TEXT_FIELDS as readonly string[]).includes(key)) return texts[key as TextField];
  if (key === "video") return input.video ? input.video : null;
  return input[key];
}

/**
 * Changes the settings a payload names (a field left out stays as it is) and
 * returns them all with the fields that changed. Texts are stored as the one
 * sanitised HTML (app/utils/rich-text.server.ts). Each changed setting gets
 * its audit row (before and after) in the same transaction.
 *
 * `seen` (the back-office form): the version of each value the page showed.
 * A setting someone else changed since is left alone when this payload still
 * holds what the page showed, and refused (409, with a message on its field)
 * when this payload changes it too, so nobody overwrites a change they never
 * saw without being told.
 */
export async function updateSettings(
  actor: ScopedActor,
  input: SettingsInput,
  seen: Partial<Record<string, string>> = {},
): Promise<Result<{ settings: SettingsValues; changed: SettingField[] }>> {
  const texts: Partial<Record<TextField, string>> = {};
  for (const key of TEXT_FIELDS) {
    const value = input[key];
    if (value !== undefined) texts[key] = await toStoredHtml(value);
  }
  return transact((tx) => {
    const before = readSettings(tx);
    const errors: FieldErrors = {};
    if (input.logo && !findPickerFile(tx, input.logo)) errors.logo = [FILE_ERRORS.thumbnail];
    if (Object.keys(errors).length) throw new FailureError(fail.invalid(errors));

    const changes: [SettingField, unknown][] = [];
    const conflicts: FieldErrors = {};
    for (const key of SETTING_FIELDS) {
      if (input[key] === undefined) continue;
      const next = nextValue(key, input, texts);
      if (settingVersion(next) === settingVersion(before[key])) continue;
      const shown = seen[key];
      if (shown && shown !== settingVersion(before[key])) {
        // Changed by someone else since the page showed it.
        if (settingVersion(next) === shown) continue;
        const last = lastChangeOf(tx, key);
        conflicts[key] = [
          SETTINGS_ERRORS.changedMeanwhile(SETTING_LABELS[key], last ? changeSummary(last) : "someone"),
        ];
        continue;
      }
      changes.push([key, next]);
    }
    if (Object.keys(conflicts).length) throw new FailureError(fail.conflict(SETTINGS_ERRORS.conflict, conflicts));

    const at = nowIso();
    for (const [key, value] of changes) {
      const json = JSON.stringify(value);
      tx.insert(settings)
        .values({ key, value: json, updated_at: at })
        .onConflictDoUpdate({ target: settings.key, set: { value: json, updated_at: at } })
        .run();
      audit(tx, actor, {
        action: "setting.update",
        entityType: ENTITY,
        entityId: key,
        changes: diff({ [key]: before[key] }, { [key]: value }),
      });
    }
    return { ok: true as const, settings: readSettings(tx), changed: changes.map(([k]) => k) };
  });
}

// ---------------------------------------------------------------- history

/** Who changed a setting last, and when. */
export type SettingChange = { at: string; by: string };

type ChangeRow = { at: string; user_email: string | null; name: string | null };

function changeSummary(row: SettingChange): string {
  return `${row.by} on ${displayDateTime(row.at)}`;
}

const present = (r: ChangeRow): SettingChange => ({ at: r.at, by: r.name || r.user_email || "someone" });

function lastChangeOf(exec: Executor, key: SettingField): SettingChange | null {
  const { auditLog: A, users: U } = schema;
  const row = exec
    .select({ at: A.at, user_email: A.user_email, name: U.name })
    .from(A)
    .leftJoin(U, eq(U.id, A.user_id))
    .where(and(eq(A.entity_type, ENTITY), eq(A.entity_id, key)))
    .orderBy(desc(A.id))
    .limit(1)
    .get();
  return row ? present(row) : null;
}

/** The last change of every setting that has one (the audit trail's newest row for it). */
export function lastSettingChanges(exec: Executor = db): Partial<Record<SettingField, SettingChange>> {
  const { auditLog: A, users: U } = schema;
  const newest = exec
    .select({ id: sql<number>`max(${A.id})`.as("id") })
    .from(A)
    .where(and(eq(A.entity_type, ENTITY), inArray(A.entity_id, [...SETTING_FIELDS])))
    .groupBy(A.entity_id)
    .all()
    .map((r) => r.id);
  if (!newest.length) return {};
  const rows = exec
    .select({ key: A.entity_id, at: A.at, user_email: A.user_email, name: U.name })
    .from(A)
    .leftJoin(U, eq(U.id, A.user_id))
    .where(inArray(A.id, newest))
    .all();
  const out: Partial<Record<SettingField, SettingChange>> = {};
  for (const r of rows) if (r.key) out[r.key as SettingField] = present(r);
  return out;
}

/** "Changed by Head Office Admin on 2026/11/21 14:05". */
export function describeChange(change: SettingChange | undefined | null): string | null {
  return change ? `Changed by ${changeSummary(change)}` : null;
}
