/**
 * The branch (dealer) form "Dealer Registration" and its API payload (spec 001
 * §2.4, §3): title, state, district, city, location, email, phone, mobile and
 * the two allocation figures. One schema for the page, conform and
 * /api/v1/branch; form strings and JSON values alike.
 *
 * Phone and mobile hold several numbers separated by "/" (spec 001 §9); each
 * number is checked and the list is kept as "a/b". Mobile numbers are Nepali
 * mobiles (10 digits starting with 9; +977 stripped).
 */
import { z } from "zod";
import { normalizePhone } from "~/utils/phone";
import { findDistrict, findProvince } from "./places";
import { optionalText, requiredText, text, toNumber } from "./primitives";

export const BRANCH_MESSAGES = {
  title: "Enter the branch name.",
  titleTaken: "A branch with this name already exists.",
  state: "Choose the state (zone).",
  stateUnknown: "Choose one of Nepal's seven provinces.",
  district: "Choose the district.",
  districtUnknown: "Choose one of Nepal's 77 districts.",
  districtElsewhere: "Choose a district of the chosen state.",
  city: "Enter the city.",
  email: "Enter a valid email address.",
  phone: 'Enter phone numbers of 6 to 15 digits, separated by "/" (for example 01-4411223/9851012345).',
  mobile: 'Enter 10-digit mobile numbers starting with 9, separated by "/".',
  count: "Enter a whole number from 0 to 1000.",
} as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const LANDLINE = /^\+?[0-9][0-9 -]*[0-9]$/;

/** "01-4411223 / 9851012345" → ["01-4411223", "9851012345"]; empty pieces dropped. */
export function splitList(value: string): string[] {
  return value
    .split("/")
    .map((p) => p.trim())
    .filter(Boolean);
}

const phoneList = z.preprocess(
  (v) => text(v)?.trim() || undefined,
  z
    .string()
    .max(100, { error: BRANCH_MESSAGES.phone })
    .transform((v, ctx) => {
      const parts = splitList(v);
      const ok = parts.every((p) => {
        const digits = p.replace(/\D/g, "").length;
        return LANDLINE.test(p) && digits >= 6 && digits <= 15;
      });
      if (!ok) {
        ctx.addIssue({ code: "custom", message: BRANCH_MESSAGES.phone });
        return z.NEVER;
      }
      return parts.join("/");
    })
    .optional(),
);

const mobileList = z.preprocess(
  (v) => text(v)?.trim() || undefined,
  z
    .string()
    .max(100, { error: BRANCH_MESSAGES.mobile })
    .transform((v, ctx) => {
      const parts = splitList(v).map(normalizePhone);
      if (!parts.length || parts.some((p) => p === null)) {
        ctx.addIssue({ code: "custom", message: BRANCH_MESSAGES.mobile });
        return z.NEVER;
      }
      return parts.join("/");
    })
    .optional(),
);

const count = z.preprocess(
  toNumber,
  z
    .number({ error: BRANCH_MESSAGES.count })
    .refine((n) => Number.isInteger(n) && n >= 0 && n <= 1000, { error: BRANCH_MESSAGES.count })
    .default(0),
);

/** A place from Nepal's list (app/schemas/places.ts), kept as the list spells it; anything else refused. */
const place = (find: (value: string) => string | undefined, required: string, unknown: string) =>
  requiredText(60, required, unknown).transform((v, ctx) => {
    const found = find(v);
    if (found) return found;
    ctx.addIssue({ code: "custom", message: unknown });
    return z.NEVER;
  });

/** The branch's fields; that the district lies in the state is the model's rule (it sees both on a partial update). */
export const branchSchema = z.object({
  title: requiredText(100, BRANCH_MESSAGES.title),
  state: place(findProvince, BRANCH_MESSAGES.state, BRANCH_MESSAGES.stateUnknown),
  district: place(findDistrict, BRANCH_MESSAGES.district, BRANCH_MESSAGES.districtUnknown),
  city: requiredText(60, BRANCH_MESSAGES.city),
  location: optionalText(200),
  email: z.preprocess(
    (v) => text(v)?.trim() || undefined,
    z
      .string()
      .max(200, { error: BRANCH_MESSAGES.email })
      .refine((v) => EMAIL.test(v), { error: BRANCH_MESSAGES.email })
      .optional(),
  ),
  phone: phoneList,
  mobile: mobileList,
  one_lakh_allocation_count: count,
  ten_lakhs_allocation_count: count,
});

export type BranchInput = z.output<typeof branchSchema>;

/** The fields of the form, in order, for the page and the docs. */
export const BRANCH_FIELDS = [
  "title",
  "state",
  "district",
  "city",
  "location",
  "email",
  "phone",
  "mobile",
  "one_lakh_allocation_count",
  "ten_lakhs_allocation_count",
] as const;
