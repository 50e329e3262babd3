/**
 * The schema pieces every payload shares, written once. Each accepts what a
 * form sends (strings, "" for empty, the last of repeated fields) and what a
 * JSON client sends (numbers, booleans, null) alike, so one schema serves the
 * page, conform in the browser and the API.
 */
import { z } from "zod";
import { SEARCH_TOO_SHORT, searchWords } from "~/utils/search-terms";

/** A form or JSON value as a string: repeated fields give their last value; numbers and booleans their text. */
export function text(value: unknown): string | undefined {
  if (Array.isArray(value)) return text(value[value.length - 1]);
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

/** "", whitespace, null and absent are all "not given". */
export const emptyToUndefined = (value: unknown): unknown => {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string" && value.trim() === "") return undefined;
  return value;
};

/** Numeric strings become numbers; empty is undefined; anything else passes on to fail validation. */
export function toNumber(value: unknown): unknown {
  const v = emptyToUndefined(Array.isArray(value) ? value[value.length - 1] : value);
  if (typeof v === "string") {
    const n = Number(v.trim());
    return Number.isFinite(n) ? n : v;
  }
  return v;
}

export const tooLong = (max: number) => `This field may not be longer than ${max} characters.`;

/** Optional trimmed text of at most `max` characters ("" is not given). */
export const optionalText = (max: number, message = tooLong(max)) =>
  z.preprocess((v) => text(v)?.trim() || undefined, z.string().max(max, { error: message }).optional());

/** Required trimmed text. */
export const requiredText = (max: number, required: string, long = tooLong(max)) =>
  z.preprocess((v) => text(v)?.trim() || undefined, z.string({ error: required }).max(max, { error: long }));

/** Text with every run of white space made one space, trimmed; "" is not given. */
export function squished(value: unknown): string | undefined {
  return text(value)?.replace(/\s+/g, " ").trim() || undefined;
}

/** Required text with its white space squished (names and places typed on one line). */
export const requiredSquishedText = (max: number, required: string, long = tooLong(max)) =>
  z.preprocess(squished, z.string({ error: required }).max(max, { error: long }));

/** A positive integer id. */
export const requiredId = (message: string) =>
  z.preprocess(
    toNumber,
    z.number({ error: message }).refine((n) => Number.isSafeInteger(n) && n > 0, { error: message }),
  );

/** An optional positive integer id: "", null and absent are not given; anything else must be an id. */
export const optionalId = (message: string) =>
  z.preprocess(
    toNumber,
    z
      .number({ error: message })
      .refine((n) => Number.isSafeInteger(n) && n > 0, { error: message })
      .optional(),
  );

/** A filter's id (a branch): a positive integer, or not given (anything else is ignored, as an old link may carry it). */
export const optionalFilterId = () =>
  z.preprocess(
    toNumber,
    z
      .number()
      .refine((n) => Number.isSafeInteger(n) && n > 0)
      .optional()
      .catch(undefined),
  );

/** A filter's choice: one of `values`, or not given ("", absent, or a value not among them, as an old link may carry). */
export const optionalChoice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => emptyToUndefined(text(v)), z.enum(values).optional().catch(undefined));

function isCalendarDate(y: number, m: number, d: number): boolean {
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}

/** "2026/11/21" or "2026/11/21 14:00" (a Kathmandu day or wall-clock hour; dashes are read too), checked to be a real date. */
export const DATE_MESSAGE = "Enter the date as yyyy/MM/dd (or yyyy/MM/dd HH:mm).";

export function isDateOrDateTime(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]([01]\d|2[0-3]):([0-5]\d))?$/.exec(value);
  return !!m && isCalendarDate(+m[1], +m[2], +m[3]);
}

/**
 * A date as typed in the display format: "2026/11/21" (or "2026/1/5") is read
 * as "2026-11-21"; a date-time keeps its time. Anything else is left for the
 * check to refuse.
 */
export function typedDate(value: string | undefined): string | undefined {
  const s = value?.trim();
  const m = s ? /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})((?:[T ]\d{2}:\d{2})?)$/.exec(s) : null;
  return m ? `${m[1]}-${m[2].padStart(2, "0")}-${m[3].padStart(2, "0")}${m[4]}` : s;
}

/** An optional date or date-time filter value. */
export const optionalDate = (message = DATE_MESSAGE) =>
  z.preprocess(
    (v) => typedDate(text(v)) || undefined,
    z.string().refine(isDateOrDateTime, { error: message }).optional(),
  );

/** The message of a day that does not read, in the form the day inputs show. */
export const DAY_MESSAGE = "Enter the date as yyyy/MM/dd.";

/**
 * A day as typed, "2026/11/21" (or "2026/1/5"), or as old links and API
 * clients write it, "2026-11-21": "2026-11-21"; null when it is not a real day.
 */
export function readDay(value: string): string | null {
  const m = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/.exec(value.trim());
  if (!m || !isCalendarDate(+m[1], +m[2], +m[3])) return null;
  return `${m[1]}-${m[2].padStart(2, "0")}-${m[3].padStart(2, "0")}`;
}

/**
 * A day (`readDay`) as "yyyy-MM-dd"; `message` when it does not read. The
 * failure does not end the object's checks (its other rules still report), so
 * a check of a range compares only days that read (`bothDays`).
 */
export const day = (message = DAY_MESSAGE) =>
  z
    .string({ error: message })
    .refine((s) => readDay(s) !== null, { error: message })
    .transform((s) => readDay(s)!);

/** From and To as "yyyy-MM-dd" when both are given and read, else null. */
export function bothDays(value: { from?: string; to?: string }): { from: string; to: string } | null {
  const from = value.from ? readDay(value.from) : null;
  const to = value.to ? readDay(value.to) : null;
  return from && to ? { from, to } : null;
}

/** An optional day: "", whitespace and absent are not given. */
export const optionalDay = (message = DAY_MESSAGE) =>
  z.preprocess((v) => text(v)?.trim() || undefined, day(message).optional());

/** The hours a filter offers beside its day: "00" to "23" (60-minute steps). */
export const FILTER_HOURS = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, "0"));

/** The field of a filter's hour: `from_hour` beside `from`. */
export const hourField = (name: string) => `${name}_hour`;

/**
 * A list's From and To as its filter form sends them: a day (`from`, `to`, yyyy/MM/dd) and an hour each
 * (`from_hour`, `to_hour`, 00–23, or none for the whole day), folded into the one value the schemas
 * read: From at its hour's start, To through its hour's end ("2026/11/24" and "13" → "2026-11-24 14:00",
 * the bound not included). A day without an hour stays a whole day; an hour that is not 00–23, or one
 * without a day, makes the value unreadable, so its message shows under the field.
 */
export function foldHours<V extends Record<string, unknown>>(values: V): V {
  const out: Record<string, unknown> = { ...values };
  for (const name of ["from", "to"]) {
    const hour = text(values[hourField(name)])?.trim();
    delete out[hourField(name)];
    if (!hour) continue;
    const dayValue = readDay(text(values[name])?.trim() ?? "");
    if (!dayValue || !FILTER_HOURS.includes(hour.padStart(2, "0"))) {
      out[name] = `${text(values[name]) ?? ""} ${hour}`.trim();
      continue;
    }
    const h = Number(hour);
    if (name === "from") out[name] = `${dayValue} ${String(h).padStart(2, "0")}:00`;
    else {
      const [y, m, d] = dayValue.split("-").map(Number);
      const end = new Date(Date.UTC(y, m - 1, d, h + 1));
      out[name] = `${end.toISOString().slice(0, 10)} ${end.toISOString().slice(11, 16)}`;
    }
  }
  return out as V;
}

/**
 * A list's from/to filter: both optional, each a date or date-time; "to" may
 * not come before "from". The model turns it into UTC bounds with
 * `kathmanduBounds` (app/utils/time.ts).
 */
export const dateRangeShape = {
  from: optionalDate(),
  to: optionalDate(),
};

export const TO_BEFORE_FROM = "The end date must be on or after the start date.";

/** A range bound as comparable wall-clock text: From at its start, To at its end (a To day runs through its whole day). */
function rangeKey(value: string, end: boolean): string {
  const v = value.replace("T", " ").slice(0, 16);
  if (v.length > 10) return v;
  if (!end) return `${v} 00:00`;
  const [y, m, d] = v.split("-").map(Number);
  return `${new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10)} 00:00`;
}

/** "To" must not end before "from" starts (From 10:00 to the 09:00 hour, or To a day before From, is refused). */
export function checkDateRange(value: { from?: string; to?: string }, ctx: z.RefinementCtx) {
  if (value.from && value.to && rangeKey(value.to, true) <= rangeKey(value.from, false)) {
    ctx.addIssue({ code: "custom", path: ["to"], message: TO_BEFORE_FROM });
  }
}

/** `checkDateRange`, judged only once both read as dates (a bad date has its own message). */
export function checkReadableRange(value: { from?: unknown; to?: unknown }, ctx: z.RefinementCtx) {
  const { from, to } = value;
  if (typeof from !== "string" || typeof to !== "string") return;
  if (isDateOrDateTime(from) && isDateOrDateTime(to)) checkDateRange({ from, to }, ctx);
}

/**
 * Field messages in the words of the form: built from the label the field
 * shows ("Chassis No"), never from its column name (chasis_no).
 */
export const FIELD_MESSAGES = {
  required: (label: string) => `${label} is required.`,
  taken: (label: string) => `${label} has already been taken.`,
  invalidEmail: (label: string) => `${label} must be a valid email address.`,
  choose: (label: string) => `Choose a ${label.toLowerCase()} from the list.`,
} as const;

/**
 * The search of a big list (pre-registrations, registrations): its first 100 characters, trimmed; a term
 * without a word of 3 or more characters gets SEARCH_TOO_SHORT at the field (app/utils/search-terms.ts).
 */
export const listSearch = z.preprocess(
  (v) => text(v)?.trim().slice(0, 100) || undefined,
  z
    .string()
    .refine((t) => searchWords(t).length > 0, { error: SEARCH_TOO_SHORT })
    .optional(),
);
