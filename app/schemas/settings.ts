/**
 * The settings form and API payload (spec 001 §2.9, §3, §7): the logo (a
 * file id from the picker), the scheme, terms and privacy policy texts in
 * English and Nepali (HTML or plain text; the server stores its own
 * sanitised HTML), the landing video address, the registration switch and
 * the closed message in English and Nepali.
 *
 * Every field is optional: a field left out is left as it is (PATCH). A field
 * sent empty (or null in JSON) is cleared: no logo, no video, no text, the
 * default closed message.
 */
import { z } from "zod";
import { isHttpUrl } from "./video";
import { text, toNumber } from "./primitives";

export const TEXT_FIELDS = ["scheme", "terms", "policy", "scheme_ne", "terms_ne", "policy_ne"] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

export const SETTING_FIELDS = [
  "logo",
  ...TEXT_FIELDS,
  "video",
  "registration_open",
  "closed_message",
  "closed_message_ne",
] as const;
export type SettingField = (typeof SETTING_FIELDS)[number];

/** The spec's closed banner (spec 000 §1), the closed message until head office writes its own. */
export const DEFAULT_CLOSED_MESSAGE = "Registration is closed. Please contact the admin for more information.";

/** What each setting is called on the screen and in its history. */
export const SETTING_LABELS: Record<SettingField, string> = {
  logo: "Logo",
  scheme: "Scheme details",
  scheme_ne: "Scheme details (Nepali)",
  terms: "Terms and conditions",
  terms_ne: "Terms and conditions (Nepali)",
  policy: "Privacy policy",
  policy_ne: "Privacy policy (Nepali)",
  video: "Landing video",
  registration_open: "Registration",
  closed_message: "Closed message",
  closed_message_ne: "Closed message (Nepali)",
};

/** A text's length limit, as sent (HTML included). */
export const TEXT_MAX = 100_000;
export const CLOSED_MESSAGE_MAX = 300;

export const SETTINGS_MESSAGES = {
  text: `Each text may not be longer than ${TEXT_MAX.toLocaleString("en")} characters.`,
  textType: "Send the text as a string of HTML or plain text.",
  logo: "Choose an image from the picker or upload one.",
  video: "Enter the video address, starting with http:// or https://.",
  registration: "Choose whether registration is open or closed.",
  closedMessage: `The closed message may not be longer than ${CLOSED_MESSAGE_MAX} characters.`,
  nothing: "Send at least one setting to change.",
} as const;

/** null is "clear it"; a repeated form field gives its last value; anything else passes on to fail. */
const clearable =
  (empty: unknown) =>
  (v: unknown): unknown => {
    if (v === null) return empty;
    if (Array.isArray(v)) return v.length ? text(v[v.length - 1]) : undefined;
    if (typeof v === "number") return String(v);
    return v;
  };

const richText = z.preprocess(
  clearable(""),
  z.string({ error: SETTINGS_MESSAGES.textType }).max(TEXT_MAX, { error: SETTINGS_MESSAGES.text }).optional(),
);

const closedMessage = z.preprocess(
  (v) => {
    const t = clearable("")(v);
    return typeof t === "string" ? t.replace(/\s+/g, " ").trim() : t;
  },
  z
    .string({ error: SETTINGS_MESSAGES.closedMessage })
    .max(CLOSED_MESSAGE_MAX, { error: SETTINGS_MESSAGES.closedMessage })
    .optional(),
);

const OPEN = new Set(["true", "1", "on", "open", "yes"]);
const CLOSED = new Set(["false", "0", "off", "closed", "no"]);

export const settingsSchema = z.object({
  logo: z.preprocess(
    (v) => (v === null || (typeof v === "string" && v.trim() === "") ? null : toNumber(v)),
    z
      .number({ error: SETTINGS_MESSAGES.logo })
      .refine((n) => Number.isSafeInteger(n) && n > 0, { error: SETTINGS_MESSAGES.logo })
      .nullable()
      .optional(),
  ),
  scheme: richText,
  terms: richText,
  policy: richText,
  scheme_ne: richText,
  terms_ne: richText,
  policy_ne: richText,
  video: z.preprocess(
    (v) => {
      const t = clearable("")(v);
      return typeof t === "string" ? t.trim() : t;
    },
    z
      .string({ error: SETTINGS_MESSAGES.video })
      .max(500, { error: SETTINGS_MESSAGES.video })
      .refine((s) => s === "" || isHttpUrl(s), { error: SETTINGS_MESSAGES.video })
      .optional(),
  ),
  registration_open: z.preprocess(
    (v) => {
      if (typeof v === "boolean" || v === undefined) return v;
      const t = text(v)?.trim().toLowerCase();
      return t !== undefined && OPEN.has(t) ? true : t !== undefined && CLOSED.has(t) ? false : v;
    },
    z.boolean({ error: SETTINGS_MESSAGES.registration }).optional(),
  ),
  closed_message: closedMessage,
  closed_message_ne: closedMessage,
});

export type SettingsInput = z.output<typeof settingsSchema>;

/** The back-office form: the settings, and the version of each value the page showed (see updateSettings). */
export const settingsFormSchema = settingsSchema.extend({
  seen: z
    .record(z.string(), z.string().max(64))
    .optional()
    .catch(() => undefined),
});

/**
 * A form posts "" for an emptied field, which the form parser reads as not
 * given: a field present in the body (`sent`) is cleared instead of left as
 * it is.
 */
export function withClearedFields<T extends SettingsInput>(value: T, sent: Iterable<string>): T {
  const out = { ...value } as Record<string, unknown>;
  for (const key of sent) {
    if (!(SETTING_FIELDS as readonly string[]).includes(key) || out[key] !== undefined) continue;
    if (key === "logo") out.logo = null;
    else if (key !== "registration_open") out[key] = "";
  }
  return out as T;
}

/** The fields a payload changes (left out: not changed). */
export const sentFields = (value: SettingsInput): SettingField[] =>
  SETTING_FIELDS.filter((k) => (value as Record<string, unknown>)[k] !== undefined);
