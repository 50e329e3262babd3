/**
 * The scheme (allocation) form and API payload: type, branch_id, date, amount,
 * count, probability. Form values arrive as strings (an empty string means
 * missing); JSON values may be numbers or strings. Parse forms with
 * `parseWithZod(formData, { schema: allocationSchema })` from "@conform-to/zod/v4".
 */
import { z } from "zod";
import { ALLOCATION_TYPES, amountsForType, isAllocationType, typeNeedsBranch } from "~/utils/prize-constants";
import {
  day,
  DAY_MESSAGE,
  emptyToUndefined,
  optionalChoice,
  optionalDay,
  optionalFilterId,
  toNumber,
} from "./primitives";

export const ALLOCATION_MESSAGES = {
  type: "Choose a scheme type.",
  branchRequired: "Choose a branch for this type.",
  branchForbidden: "A public pre-registration scheme has no branch; leave the branch empty.",
  date: DAY_MESSAGE,
  amountRequired: "Choose an amount.",
  amountNotInList: "Choose an amount from the list for this type.",
  count: "The count must be between 1 and 5.",
  probability: "The probability must be a whole number between 0 and 100.",
  /** The form asks once before it saves a pool that can never pay (the API takes 0, the spec's default). */
  probabilityZero:
    '0 in 100 means no entry ever wins this pool. Enter a chance from 1 to 100, or tick "Never pays" to save it so.',
} as const;

/** What the probability means, said beside the field. */
export const PROBABILITY_HINT =
  "The chance, out of 100, that an entry drawing on this day wins one of this pool's prizes (100: every entry wins until the count is used up).";

/** An integer field in [min, max] with one message for every failure. A refinement (not `.int()`) keeps
 * the failure non-aborting, so the cross-field rules below still report their own errors. */
function intField(min: number, max: number, message: string) {
  return z.number({ error: message }).refine((n) => Number.isInteger(n) && n >= min && n <= max, { error: message });
}

const allocationFields = {
  type: z.preprocess(emptyToUndefined, z.enum(ALLOCATION_TYPES, { error: ALLOCATION_MESSAGES.type })),
  branch_id: z.preprocess(
    toNumber,
    z
      .number({ error: ALLOCATION_MESSAGES.branchRequired })
      .refine((n) => Number.isInteger(n) && n > 0, { error: ALLOCATION_MESSAGES.branchRequired })
      .optional(),
  ),
  /** A Kathmandu day typed as yyyy/MM/dd (yyyy-MM-dd is read too), stored as yyyy-MM-dd. */
  date: z.preprocess((v) => (typeof v === "string" ? v.trim() : emptyToUndefined(v)), day(ALLOCATION_MESSAGES.date)),
  amount: z.preprocess(toNumber, z.number({ error: ALLOCATION_MESSAGES.amountRequired })),
  count: z.preprocess(toNumber, intField(1, 5, ALLOCATION_MESSAGES.count).default(1)),
  probability: z.preprocess(toNumber, intField(0, 100, ALLOCATION_MESSAGES.probability).default(0)),
};

type AllocationValue = z.output<z.ZodObject<typeof allocationFields>>;

/** The rules across fields: a branch exactly for the types that need one, an amount from the type's list. */
function allocationRules(value: AllocationValue, ctx: z.RefinementCtx) {
  if (!isAllocationType(value.type)) return;
  if (typeNeedsBranch(value.type)) {
    if (value.branch_id === undefined) {
      ctx.addIssue({ code: "custom", path: ["branch_id"], message: ALLOCATION_MESSAGES.branchRequired });
    }
  } else if (value.branch_id !== undefined) {
    ctx.addIssue({ code: "custom", path: ["branch_id"], message: ALLOCATION_MESSAGES.branchForbidden });
  }
  if (typeof value.amount === "number" && !amountsForType(value.type).includes(value.amount)) {
    ctx.addIssue({ code: "custom", path: ["amount"], message: ALLOCATION_MESSAGES.amountNotInList });
  }
}

/** The scheme payload of POST /api/v1/allocation (probability 0 allowed: the spec's default). */
export const allocationSchema = z.object(allocationFields).superRefine(allocationRules, { when: () => true });

/**
 * The scheme form (/admin/scheme/create): the payload, and a pool that can never pay (probability 0) only
 * when "Never pays" is ticked, so 0 is never saved by mistake; the list marks such a pool.
 */
export const allocationFormSchema = z
  .object({ ...allocationFields, never_pays: z.preprocess((v) => v === "on" || v === true, z.boolean()) })
  .superRefine(allocationRules, { when: () => true })
  .superRefine(
    (value, ctx) => {
      if (value.probability === 0 && !value.never_pays) {
        ctx.addIssue({ code: "custom", path: ["probability"], message: ALLOCATION_MESSAGES.probabilityZero });
      }
    },
    { when: () => true },
  );

export type AllocationInput = z.output<typeof allocationSchema>;
export type AllocationFormInput = z.input<typeof allocationSchema>;

/** The count of an existing allocation (editing only the count). */
export const allocationCountSchema = z.object({
  count: z.preprocess(toNumber, intField(1, 5, ALLOCATION_MESSAGES.count)),
});

export type AllocationCountInput = z.output<typeof allocationCountSchema>;

/**
 * The scheme list's filters (page, GET /api/v1/allocation): type, branch and
 * the pool's day (yyyy/MM/dd; yyyy-MM-dd is read too). A day that does not
 * read is its message under its filter (page) or 422 (API); a type or branch
 * that is not one of the choices is ignored, as an old link may carry one.
 */
export const allocationFiltersSchema = z.object({
  type: optionalChoice(ALLOCATION_TYPES),
  branch_id: optionalFilterId(),
  date: optionalDay(),
});

/** The scheme page's filters: the list's, and the payout preview's day, branch and number of entries. */
export const schemePageFiltersSchema = allocationFiltersSchema.extend({
  preview_date: optionalDay(),
  preview_branch: optionalFilterId(),
  entries: z.preprocess(
    toNumber,
    z
      .number()
      .refine((n) => Number.isSafeInteger(n) && n >= 0)
      .optional()
      .catch(undefined),
  ),
});
