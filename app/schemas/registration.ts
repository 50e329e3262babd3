/**
 * The registration (purchase) form and API payload, the purchase confirmation
 * code and the list filters. One schema for the conform form in the browser,
 * the route action and POST /api/v1/registration(/{slug}). Parse form data with
 * `parseWithZod(formData, { schema })` from "@conform-to/zod/v4" (it turns
 * empty strings into undefined, "on" into true and numeric text into numbers).
 */
import { z } from "zod";
import { PAYMENT_MODES, REGISTRATION_STATUSES } from "@db/enums";
import { englishLabels } from "~/utils/labels";
import {
  FIELD_MESSAGES,
  checkReadableRange,
  dateRangeShape,
  listSearch,
  optionalId,
  optionalText as sharedOptionalText,
  requiredText,
  text as asText,
  toNumber,
} from "./primitives";

export { PAYMENT_MODES };
export type PaymentMode = (typeof PAYMENT_MODES)[number];

/** English labels of the payment modes (the one table is app/utils/labels.ts). */
export const PAYMENT_MODE_LABELS: Record<PaymentMode, string> = englishLabels("payment_mode");

/** The labels the registration form shows; its messages are built from them. */
export const REGISTRATION_FIELD_LABELS = {
  bill_no: "Bill/Chalan No",
  name: "Full Name",
  address: "Address",
  email: "Email",
  citizenship_no: "Citizenship No",
  bike_model_id: "Bike Model",
  engine_no: "Engine No",
  chasis_no: "Chassis No",
  registration_no: "Vehicle Registration No",
  payment_mode: "Payment Mode",
} as const;
const F = REGISTRATION_FIELD_LABELS;

export const REGISTRATION_MESSAGES = {
  billNo: FIELD_MESSAGES.required(F.bill_no),
  name: FIELD_MESSAGES.required(F.name),
  address: FIELD_MESSAGES.required(F.address),
  citizenship: FIELD_MESSAGES.required(F.citizenship_no),
  email: FIELD_MESSAGES.invalidEmail(F.email),
  bikeModel: FIELD_MESSAGES.required(F.bike_model_id),
  bikeModelMissing: FIELD_MESSAGES.choose(F.bike_model_id),
  engineNo: FIELD_MESSAGES.required(F.engine_no),
  chasisNo: FIELD_MESSAGES.required(F.chasis_no),
  registrationNo: FIELD_MESSAGES.required(F.registration_no),
  paymentMode: FIELD_MESSAGES.choose(F.payment_mode),
  tooLong: (n: number) => `This field may not be greater than ${n} characters.`,
  engineTaken: FIELD_MESSAGES.taken(F.engine_no),
  chasisTaken: FIELD_MESSAGES.taken(F.chasis_no),
  registrationNoTaken: FIELD_MESSAGES.taken(F.registration_no),
  billTaken: FIELD_MESSAGES.taken(F.bill_no),
  referrerMissing: "No registration was found for this referrer.",
  referrerSelf: "A customer cannot refer their own purchase.",
  noBranch: "Only a branch user can register a purchase.",
  notVerified: "This pre-registration is not verified yet. Verify it before registering the purchase.",
  alreadyPurchased: "This pre-registration already has a registration.",
  preregistrationNotFound: "Pre-registration not found.",
  formUsed: "This form was already sent. Please reload the page and try again.",
  notFound: "Registration not found.",
  deleted: "This registration is deleted.",
  enterCode: "Enter the registration code the customer received",
  codeFormat: "The code must be 6 digits.",
  incorrectCode: "Incorrect Code. Please Try again",
  notConfirmed: "Confirm the purchase with the customer's code before drawing the coupon.",
  notDrawn: "Draw the coupon before notifying the customer.",
  notifyTooSoon: (minutes: number) =>
    `The prize notice was sent a short while ago. It can be sent again in ${minutes} minute(s).`,
  restoreTaken: (field: string) => `Another active registration already uses this ${field}; it cannot be restored.`,
} as const;

/** Keeps letters, digits, hyphen, dot and underscore, upper-cased (engine, chassis and vehicle numbers). */
export const vehicleNumber = (v: string) => v.replace(/[^A-Za-z0-9\-._]/g, "").toUpperCase();
/** Keeps letters, digits, hyphen, dot, underscore and @ (spec §5, email). */
export const emailChars = (v: string) => v.replace(/[^A-Za-z0-9\-._@]/g, "");

const text = (required: string, max: number) => requiredText(max, required, REGISTRATION_MESSAGES.tooLong(max));

const optionalText = (max: number) => sharedOptionalText(max, REGISTRATION_MESSAGES.tooLong(max));

const vehicle = (required: string) =>
  z.preprocess(
    (v) => {
      const s = asText(v);
      return s === undefined ? undefined : vehicleNumber(s) || undefined;
    },
    z.string({ error: required }).max(50, { error: REGISTRATION_MESSAGES.tooLong(50) }),
  );

const fields = {
  bill_no: text(REGISTRATION_MESSAGES.billNo, 40),
  name: text(REGISTRATION_MESSAGES.name, 120),
  address: text(REGISTRATION_MESSAGES.address, 200),
  citizenship_no: text(REGISTRATION_MESSAGES.citizenship, 40),
  pan: optionalText(40),
  email: z
    .string()
    .transform(emailChars)
    .pipe(z.union([z.literal(""), z.email(REGISTRATION_MESSAGES.email).max(120)]))
    .transform((v) => v || undefined)
    .optional(),
  bike_model_id: z
    .number({ error: REGISTRATION_MESSAGES.bikeModel })
    .int(REGISTRATION_MESSAGES.bikeModel)
    .positive(REGISTRATION_MESSAGES.bikeModel),
  engine_no: vehicle(REGISTRATION_MESSAGES.engineNo),
  chasis_no: vehicle(REGISTRATION_MESSAGES.chasisNo),
  registration_no: vehicle(REGISTRATION_MESSAGES.registrationNo),
  payment_mode: z.enum(PAYMENT_MODES, { error: REGISTRATION_MESSAGES.paymentMode }).default("CASH"),
  note: optionalText(1000),
  send_sms: z.boolean().default(false),
  /** Referrer: the id of another registration (the API and the enhanced search). */
  registration_id: z.number().int().positive().optional(),
  /** Referrer typed by hand: a registered customer's phone number or registration slug. */
  referrer: optionalText(60),
  referred_by: optionalText(120),
};

/** Create: every field plus the form's idempotency token. */
export const registrationSchema = z.object({ ...fields, form_token: optionalText(100) });
export type RegistrationInput = z.output<typeof registrationSchema>;

/** POST /api/v1/registration: the create fields plus the pre-registration's slug. */
export const registrationApiSchema = registrationSchema.extend({
  preregistration_id: z
    .string({ error: "The preregistration id field is required." })
    .trim()
    .min(1, "The preregistration id field is required."),
});

/** Edit: the same fields; the phone and the pre-registration cannot change. */
export const registrationUpdateSchema = z.object(fields);
export type RegistrationUpdateInput = z.output<typeof registrationUpdateSchema>;

/** The purchase confirmation code the customer received by SMS. */
export const registrationCodeSchema = z.object({
  code: z
    .string({ error: REGISTRATION_MESSAGES.enterCode })
    .trim()
    .min(1, REGISTRATION_MESSAGES.enterCode)
    .regex(/^\d{6}$/, REGISTRATION_MESSAGES.codeFormat),
});

/** Referrer search (POST /api/v1/registration/search). */
export const registrantSearchSchema = z.object({ q: z.string().trim().max(60).default("") });

/** The states of a registration: made (code sent), confirmed with the customer's code, coupon drawn. */
export { REGISTRATION_STATUSES };
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];

export const REGISTRATION_FILTER_MESSAGES = {
  paymentMode: "Choose a payment mode from the list.",
  bikeModel: "Choose a model from the list.",
  branch: "Choose a branch from the list.",
  amount: "Enter the prize as a whole number of rupees.",
  status: "Choose a status from the list.",
} as const;

const optionalEnum = <const T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.preprocess((v) => asText(v)?.trim() || undefined, z.enum(values, { error: message }).optional());

/** A prize filter: a whole number of rupees, 0 or more ("0" = no coupon for post_prize). */
const optionalAmount = (message: string) =>
  z.preprocess(
    toNumber,
    z
      .number({ error: message })
      .refine((n) => Number.isSafeInteger(n) && n >= 0, { error: message })
      .optional(),
  );

/**
 * The list filters of the registration screens (list, trash, the dashboard's
 * Registered Buyers), the API list, the download and the print sheet, read
 * from the query string. `prize` is the total prize, `pre_prize` the second
 * thrill, `post_prize` the third (0 = drawn without a coupon); from/to are
 * Kathmandu dates or date-times (a `to` date includes its whole day). A bad
 * value is a field error under its filter (page) or 422 (API).
 */
export const registrationFiltersSchema = z
  .object({
    payment_mode: optionalEnum(PAYMENT_MODES, REGISTRATION_FILTER_MESSAGES.paymentMode),
    bike_model: optionalId(REGISTRATION_FILTER_MESSAGES.bikeModel),
    branch: optionalId(REGISTRATION_FILTER_MESSAGES.branch),
    ...dateRangeShape,
    prize: optionalAmount(REGISTRATION_FILTER_MESSAGES.amount),
    pre_prize: optionalAmount(REGISTRATION_FILTER_MESSAGES.amount),
    post_prize: optionalAmount(REGISTRATION_FILTER_MESSAGES.amount),
    status: optionalEnum(REGISTRATION_STATUSES, REGISTRATION_FILTER_MESSAGES.status),
    /** Name, phone, citizenship/PAN, bill, engine, chassis or vehicle number (first 100 characters). */
    search: listSearch,
    /** One registration (print a single coupon pair). */
    slug: sharedOptionalText(64),
  })
  .superRefine(checkReadableRange);

export type RegistrationFilters = z.output<typeof registrationFiltersSchema>;

/** The filter keys a list carries to its Download and Print links. */
export const REGISTRATION_FILTER_KEYS = [
  "payment_mode",
  "bike_model",
  "branch",
  "from",
  "to",
  "prize",
  "pre_prize",
  "post_prize",
  "status",
  "search",
] as const;
