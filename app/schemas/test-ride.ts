/**
 * The "Book a Ride" form and POST /api/v1/test-ride payload (spec 000 §3, §5;
 * spec 001 §7, §8): type (TESTRIDE or BOOKING, default TESTRIDE), name, state,
 * district, city, email, phone, bike_model_id, branch_id, utm_source and the
 * captcha answer (checked by the route's guard, never by the model). Error keys are the spec's booking
 * error fields; the form shows the district error under the city field too.
 */
import { z } from "zod";
import { TEST_RIDE_TYPES } from "@db/enums";
import { normalizePhone } from "~/utils/phone";
import { FILTERS, FORM_TOKEN } from "./preregistration";
import { checkReadableRange, dateRangeShape, requiredId, requiredSquishedText, text as str } from "./primitives";

export { TEST_RIDE_TYPES };
export const TEST_RIDE_MESSAGES = {
  type: "Please choose a test ride or a booking.",
  name: "Please enter your full name.",
  state: "Please choose a province.",
  district: "Please choose a district.",
  city: "Please choose a city.",
  email: "Please enter a valid email address.",
  phoneRequired: "Please enter your phone number.",
  phoneInvalid: "Please enter a valid mobile number (10 digits starting with 9).",
  bikeModel: "Please choose a model.",
  branch: "Please choose a branch.",
  tooLong: (max: number) => `This field may not be longer than ${max} characters.`,
  // Checked by the model against the branch list.
  stateUnknown: "Please choose a province from the list.",
  districtOutside: "Please choose a district of the chosen province.",
  cityOutside: "Please choose a city of the chosen district.",
  branchOutside: "Please choose a branch in the chosen city.",
  bikeModelUnknown: "Please choose a model from the list.",
  thanks: "Thank You for Test Ride Booking.",
} as const;

const place = (message: string) => requiredSquishedText(100, message, TEST_RIDE_MESSAGES.tooLong(100));

export const testRideSchema = z.object({
  type: z.preprocess(
    (v) => str(v)?.trim().toUpperCase() || undefined,
    z.enum(TEST_RIDE_TYPES, { error: TEST_RIDE_MESSAGES.type }).default("TESTRIDE"),
  ),
  name: requiredSquishedText(100, TEST_RIDE_MESSAGES.name, TEST_RIDE_MESSAGES.tooLong(100)),
  state: place(TEST_RIDE_MESSAGES.state),
  district: place(TEST_RIDE_MESSAGES.district),
  city: place(TEST_RIDE_MESSAGES.city),
  email: z.preprocess(
    (v) => {
      const s = str(v)?.trim();
      return s ? s : undefined;
    },
    z
      .string()
      .max(100, { error: TEST_RIDE_MESSAGES.tooLong(100) })
      .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { error: TEST_RIDE_MESSAGES.email })
      .optional(),
  ),
  phone: z.preprocess(
    (v) => {
      const s = str(v);
      if (s === undefined) return undefined;
      const digits = FILTERS.digits(s);
      return digits ? digits : undefined;
    },
    z
      .string({ error: TEST_RIDE_MESSAGES.phoneRequired })
      .refine((s) => normalizePhone(s) !== null, { error: TEST_RIDE_MESSAGES.phoneInvalid })
      .transform((s) => normalizePhone(s)!),
  ),
  bike_model_id: requiredId(TEST_RIDE_MESSAGES.bikeModel),
  branch_id: requiredId(TEST_RIDE_MESSAGES.branch),
  utm_source: z.preprocess((v) => str(v)?.trim().slice(0, 100) || undefined, z.string().optional()),
  form_token: FORM_TOKEN,
});

export type TestRideInput = z.output<typeof testRideSchema>;

/**
 * The test-ride list's filters (page, GET /api/v1/test-ride, the download):
 * From and To as Kathmandu dates or date-times (the pickers step by the hour);
 * a To date includes its whole day, so from = to = a day lists that day.
 */
export const testRideFiltersSchema = z.object(dateRangeShape).superRefine(checkReadableRange);
export type TestRideFilters = z.output<typeof testRideFiltersSchema>;
