/**
 * The pre-registration form and API payload (spec 000 §3 and §5), shared by the
 * public pages, the back-office screens and /api/v1. Parse forms with
 * `parseWithZod(formData, { schema })` from "@conform-to/zod/v4"; plain objects
 * with `schema.safeParse(value)`: every field accepts strings (form posts) and
 * the natural JSON type alike.
 *
 * The client-side filtering rules of spec 000 §5 are applied again here before
 * validation (`FILTERS`): email keeps letters, digits, - . _ @; name keeps
 * letters, digits, underscore and whitespace; address keeps those and the
 * comma, full stop, hyphen and slash an address is written with ("Ward 10,
 * Baneshwor-10/3", decision 9); phone and citizenship_no keep digits only. The browser applies the same functions while typing.
 *
 * The screenshot file travels beside the schema (multipart File) and is handed
 * to the model explicitly; the captcha answer (g-recaptcha-response) and the
 * honeypot are checked by the public routes' guard before the model runs.
 */
import { z } from "zod";
import { PREREGISTRATION_STATUSES } from "~/utils/preregistration-status";
import {
  checkDateRange,
  dateRangeShape,
  emptyToUndefined,
  listSearch,
  optionalId,
  optionalText,
  requiredId,
  text,
  toNumber,
} from "~/schemas/primitives";
import { normalizePhone } from "~/utils/phone";
import { SOURCE_OPTIONS } from "@db/enums";

export { SOURCE_OPTIONS };

export type Source = (typeof SOURCE_OPTIONS)[number];

export const PREREGISTRATION_MESSAGES = {
  name: "Please enter your full name.",
  address: "Please enter your address.",
  email: "Please enter a valid email address.",
  phoneRequired: "Please enter your phone number.",
  phoneInvalid: "Please enter a valid mobile number (10 digits starting with 9).",
  citizenshipRequired: "Please enter your citizenship number or PAN.",
  citizenshipInvalid: "The citizenship number or PAN must have 4 to 20 digits.",
  bikeModel: "Please choose a bike model from the list.",
  source: "Please choose how you heard about us from the list.",
  nearestBranch: "Please choose your nearest showroom.",
  note: "The note may not be longer than 1000 characters.",
  tooLong: (max: number) => `This field may not be longer than ${max} characters.`,
  // Rules checked by the model (app/models/preregistration.server.ts).
  screenshotRequired: "Please upload a screenshot of your post.",
  phoneTaken: "This phone number is already pre-registered.",
  phoneTakenUnverified: "This phone number is already pre-registered but not verified yet. Continue its verification.",
  pendingPurchase: "This citizenship/pan has pending purchase.",
  closed: "Registration is closed. Please contact the admin for more information.",
  rejected: "Your form could not be accepted. Please try again.",
  // The counter: the branch a staff-made pre-registration belongs to (head office chooses it).
  branch: "Choose the branch this pre-registration belongs to.",
  // A branch user's searches that open other showrooms' customers (the `counter-grant` limit).
  grantLimit: (seconds: number) =>
    `You have opened many customers of other showrooms by their phone this hour. Please try again in ${Math.max(1, Math.ceil(seconds / 60))} minute(s), or ask head office.`,
} as const;

/** The same rules in the counter's words: staff type the customer's details, not their own. */
export const STAFF_PREREGISTRATION_MESSAGES = {
  ...PREREGISTRATION_MESSAGES,
  name: "Please enter the customer's full name.",
  address: "Please enter the customer's address.",
  phoneRequired: "Please enter the customer's phone number.",
  citizenshipRequired: "Please enter the customer's citizenship number or PAN.",
  source: "Please choose how the customer heard about us from the list.",
  nearestBranch: "Please choose the customer's nearest showroom.",
} as const;

/** The id pieces live in primitives.ts; re-exported for the schemas that import them from here. */
export { optionalId, requiredId };

/** Devanagari digits (०-९) typed on a Nepali keyboard count as digits. */
const DEVANAGARI_DIGITS = /[\u0966-\u096F]/g;
const toAsciiDigits = (s: string) => s.replace(DEVANAGARI_DIGITS, (d) => String(d.charCodeAt(0) - 0x0966));

/** The filtering rules of spec 000 §5; the browser runs the same ones while typing. */
export const FILTERS = {
  email: (s: string) => s.replace(/[^A-Za-z0-9\-._@]/g, ""),
  /** Letters (any script, with their combining marks), digits, underscore and whitespace. */
  text: (s: string) => s.replace(/[^\p{L}\p{M}\p{Nd}_\s]/gu, ""),
  /** `text` and the punctuation of an address: comma, full stop, hyphen, slash. */
  address: (s: string) => s.replace(/[^\p{L}\p{M}\p{Nd}_\s,./-]/gu, ""),
  digits: (s: string) => toAsciiDigits(s).replace(/[^0-9]/g, ""),
} as const;

/** The same filters as regular-expression sources, for the inline browser script. */
export const FILTER_PATTERNS = {
  email: "[^A-Za-z0-9\\-._@]",
  text: "[^\\p{L}\\p{M}\\p{Nd}_\\s]",
  address: "[^\\p{L}\\p{M}\\p{Nd}_\\s,./-]",
  digits: "[^0-9]",
} as const;

const filtered =
  (filter: (s: string) => string, collapse = false) =>
  (value: unknown) => {
    const s = text(value);
    if (s === undefined) return undefined;
    let out = filter(s);
    if (collapse) out = out.replace(/\s+/g, " ");
    out = out.trim();
    return out === "" ? undefined : out;
  };

/**
 * A checkbox with a default when absent (send_sms is on unless unticked).
 * Checkbox semantics: "on", "true", "1", "yes" are true; "off", "false", "0", "no" and "" are false. */
export const checkbox = (whenAbsent: boolean) =>
  z.preprocess((v) => {
    if (typeof v === "boolean") return v;
    const s = text(v)?.trim().toLowerCase();
    if (s === undefined) return whenAbsent;
    return ["on", "true", "1", "yes"].includes(s);
  }, z.boolean());

export const FORM_TOKEN = z.preprocess(
  (v) => {
    const s = text(v)?.trim();
    return s ? s : undefined;
  },
  z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,64}$/, { error: "The form token is not valid. Please reload the page." })
    .optional(),
);

/** The form token of a rendered form, or a screenshot reference signed by the server. */
const optionalToken = (pattern: RegExp, message: string) =>
  z.preprocess(
    (v) => {
      const s = text(v)?.trim();
      return s ? s : undefined;
    },
    z.string().regex(pattern, { error: message }).optional(),
  );

/** A reference to a screenshot stored at the confirmation step (`{file id}.{signature}`). */
export const SCREENSHOT_REF = optionalToken(/^\d{1,12}\.[A-Za-z0-9_-]{32}$/, "Please upload the screenshot again.");

type Messages = typeof PREREGISTRATION_MESSAGES | typeof STAFF_PREREGISTRATION_MESSAGES;

/** The fields with their messages: the visitor's ("your full name") or the counter's ("the customer's"). */
function fieldsSaying(M: Messages) {
  return {
    name: z.preprocess(filtered(FILTERS.text, true), z.string({ error: M.name }).max(100, { error: M.tooLong(100) })),
    address: z.preprocess(
      filtered(FILTERS.address, true),
      z.string({ error: M.address }).max(200, { error: M.tooLong(200) }),
    ),
    email: z.preprocess(
      filtered(FILTERS.email),
      z
        .string()
        .max(100, { error: M.tooLong(100) })
        .regex(/^[A-Za-z0-9._-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/, { error: M.email })
        .optional(),
    ),
    phone: z.preprocess(
      filtered(FILTERS.digits),
      z
        .string({ error: M.phoneRequired })
        .refine((s) => normalizePhone(s) !== null, { error: M.phoneInvalid })
        .transform((s) => normalizePhone(s)!),
    ),
    citizenship_no: z.preprocess(
      filtered(FILTERS.digits),
      z.string({ error: M.citizenshipRequired }).regex(/^\d{4,20}$/, { error: M.citizenshipInvalid }),
    ),
    source: z.preprocess(
      (v) => {
        const s = text(v)?.trim().toUpperCase();
        return s ? s : undefined;
      },
      z.enum(SOURCE_OPTIONS, { error: M.source }).optional(),
    ),
    bike_model_id: optionalId(M.bikeModel),
    nearest_branch_id: optionalId(M.nearestBranch),
  };
}

function shapeSaying(M: Messages) {
  const f = fieldsSaying(M);
  return {
    name: f.name,
    address: f.address,
    email: f.email,
    phone: f.phone,
    citizenship_no: f.citizenship_no,
    shared: checkbox(false),
    bike_model_id: f.bike_model_id,
    source: f.source,
    note: optionalText(1000),
    send_sms: checkbox(true),
    nearest_branch_id: f.nearest_branch_id,
    form_token: FORM_TOKEN,
    screenshot_ref: SCREENSHOT_REF,
  };
}

const baseShape = shapeSaying(PREREGISTRATION_MESSAGES);
const staff = fieldsSaying(STAFF_PREREGISTRATION_MESSAGES);

/** Every channel: staff-made pre-registrations (back office, staff API) use this one. */
export const preregistrationSchema = z.object(baseShape);

/**
 * The counter's create and edit forms and the staff API's create: the fields,
 * and the branch the record belongs to (head office chooses it; a branch
 * user's records belong to their own branch whatever is sent).
 */
export const counterPreregistrationSchema = z.object({
  ...shapeSaying(STAFF_PREREGISTRATION_MESSAGES),
  branch_id: optionalId(PREREGISTRATION_MESSAGES.branch),
});

/** The public form and POST /api/v1/enquiry: the nearest showroom is required too. */
export const publicPreregistrationSchema = z.object({
  ...baseShape,
  nearest_branch_id: requiredId(PREREGISTRATION_MESSAGES.nearestBranch),
});

export type PreregistrationInput = z.output<typeof preregistrationSchema>;
export type CounterPreregistrationInput = z.output<typeof counterPreregistrationSchema>;

/** A checkbox that is left as it is when absent (a partial update). */
const keptCheckbox = z.preprocess((v) => {
  if (typeof v === "boolean") return v;
  const s = text(v)?.trim().toLowerCase();
  if (s === undefined || s === "") return undefined;
  return ["on", "true", "1", "yes"].includes(s);
}, z.boolean().optional());

const optional = <T extends z.ZodType>(field: T) =>
  z.preprocess((v) => (text(v)?.trim() ? v : undefined), field.optional());

/**
 * The fields a pre-registration change may carry, each optional (the shape of PreregistrationChanges;
 * POST /api/v1/preregistration/{id} reads the edit schema over the stored values, docs/api.md).
 */
export const preregistrationPatchSchema = z.object({
  name: optional(staff.name),
  address: optional(staff.address),
  email: staff.email,
  phone: optional(staff.phone),
  citizenship_no: optional(staff.citizenship_no),
  shared: keptCheckbox,
  bike_model_id: staff.bike_model_id,
  source: staff.source,
  note: optionalText(1000),
  send_sms: keptCheckbox,
  nearest_branch_id: staff.nearest_branch_id,
  branch_id: optionalId(PREREGISTRATION_MESSAGES.branch),
});

/**
 * A change to a pre-registration: a field left undefined keeps its stored
 * value; null clears an optional one.
 */
export type PreregistrationChanges = Omit<
  z.output<typeof preregistrationPatchSchema>,
  "email" | "source" | "note" | "bike_model_id"
> & {
  email?: string | null;
  source?: Source | null;
  note?: string | null;
  bike_model_id?: number | null;
};

/**
 * The counter's edit form: the whole form is sent, so an optional field left
 * empty is cleared (the nearest showroom, not on the form, and head office's
 * branch, when not chosen, stay).
 */
export const preregistrationEditSchema = counterPreregistrationSchema.transform(
  ({ form_token: _token, screenshot_ref: _ref, ...v }): PreregistrationChanges => ({
    ...v,
    email: v.email ?? null,
    source: v.source ?? null,
    note: v.note ?? null,
    bike_model_id: v.bike_model_id ?? null,
  }),
);

/**
 * The verify forms (public and counter), POST /api/v1/enquiry/{id}/verify and
 * POST /api/v1/preregistration/{id}/verify: { code } (the counter's may come
 * with no body at all: spec 000 §7). Empty is reported by the model.
 */
export const verifySchema = z.object({
  code: z.preprocess((v) => FILTERS.digits(text(v) ?? ""), z.string()),
});

export const OTP_MESSAGES = {
  required: "OTP is required",
  invalid: "Invalid OTP",
  expired: "This OTP has expired. Please ask for a new code.",
  exhausted: "This OTP was entered wrongly too many times. Please ask for a new code.",
  /** The wrong code that used the last try: the code is dead now, and the visitor is told so at once. */
  lastTry: "Invalid OTP. That was the last try for this code: please ask for a new one with Resend code.",
  notFound: "Pre-registration not found.",
  alreadyVerified: "This phone number is already verified.",
  tooSoon: (seconds: number) => `Please wait ${seconds} seconds before asking for a new code.`,
  hourlyCap: (minutes: number) => `Too many codes were sent to this phone. Please try again in ${minutes} minute(s).`,
  ceiling: (minutes: number) =>
    `We are sending a great many codes right now. Please try again in ${minutes} minute(s); nothing was lost.`,
  resent: "A new code has been sent.",
} as const;

/**
 * "Continue" (/enquiry/continue, POST /api/v1/enquiry/continue): the owner of a
 * phone that is already pre-registered asks for a code to that phone, then
 * opens the entry with it. The answers are the same whether or not the phone
 * is registered.
 */
export const CONTINUE_MESSAGES = {
  sent: "If this phone number is pre-registered, a 6-digit code has been sent to it by SMS.",
  opened: "Welcome back. This is your pre-registration.",
} as const;

/** Step one of "continue": the phone number. */
export const continueSendSchema = z.object({ phone: baseShape.phone });

/** Step two of "continue": the phone number and the code sent to it (an empty code is reported by the model). */
export const continueVerifySchema = z.object({
  phone: baseShape.phone,
  code: z.preprocess((v) => FILTERS.digits(text(v) ?? ""), z.string()),
});

/** The counter's verify screen (spec 000 §4 and §8). */
export const COUNTER_VERIFY_MESSAGES = {
  enterCode: "Enter the registration code the customer received",
  mismatch: "the code you have selected is incorrect. Please try again or resend the code",
  resent: "A new code has been sent to the customer.",
  noLiveCode: "There is no live code. Resend the code first.",
  verified: "Phone number verified.",
} as const;

// ---------------------------------------------------------------- list filters

export const PREREGISTRATION_FILTER_MESSAGES = {
  bikeModel: "Choose a bike model from the list.",
  branch: "Choose a branch from the list.",
  prize: "Choose a prize from the list.",
  status: "Choose a status from the list.",
} as const;

/**
 * The filters of the pre-registration list, its download and GET
 * /api/v1/preregistration. A value that is not one of the list's choices is
 * an error at its filter (the page shows it there; the API answers 422).
 */
export const preregistrationFiltersSchema = z
  .object({
    bike_model: optionalId(PREREGISTRATION_FILTER_MESSAGES.bikeModel),
    branch: optionalId(PREREGISTRATION_FILTER_MESSAGES.branch),
    ...dateRangeShape,
    prize: z.preprocess(
      toNumber,
      z
        .number({ error: PREREGISTRATION_FILTER_MESSAGES.prize })
        .int({ error: PREREGISTRATION_FILTER_MESSAGES.prize })
        .nonnegative({ error: PREREGISTRATION_FILTER_MESSAGES.prize })
        .optional(),
    ),
    status: z.preprocess(
      emptyToUndefined,
      z.enum(PREREGISTRATION_STATUSES, { error: PREREGISTRATION_FILTER_MESSAGES.status }).optional(),
    ),
    /** Phone (or name, citizenship number) search; the spec's list sends it as `phone`. */
    phone: listSearch,
  })
  .superRefine(checkDateRange);

/**
 * The list's search term as its filters read it (app/schemas/preregistration.ts,
 * through parseQuery/apiQuery): `phone` (the spec's name), DataTables'
 * `search[value]` or the page's `search`. The page, GET /api/v1/preregistration
 * and Preregistrations.xls all read their filters this way.
 */
export const preregistrationSearchParam = (params: URLSearchParams) => ({
  phone: params.get("phone") ?? params.get("search[value]") ?? params.get("search"),
});
