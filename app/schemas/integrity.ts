/**
 * The integrity desk's payloads (decision 21): the flags list's filters (its page,
 * GET /api/v1/integrity/flags and Flags.xls), head office's decision on a flag (the page's buttons
 * and POST /api/v1/integrity/flags/{id}).
 */
import { z } from "zod";
import { FLAG_STATUSES, INTEGRITY_REASONS } from "@db/enums";
import { checkReadableRange, dateRangeShape, optionalId, optionalText, requiredText, text } from "./primitives";

export const INTEGRITY_MESSAGES = {
  reason: "Choose a reason from the list.",
  status: "Choose a status from the list.",
  branch: "Choose a branch from the list.",
  user: "Choose a staff user from the list.",
  action: "Choose clear, hold or void.",
  note: "Write a note: why head office clears, holds or voids this flag.",
  noteLong: "The note may not be longer than 1000 characters.",
  notHeadOffice: "Only head office reviews integrity flags.",
  notFound: "Flag not found.",
  voided: "This flag's prize is voided: that decision stands.",
} as const;

/** A list filter's enumerated value: one of `values`, else its message (a bad value is not silently dropped). */
const choice = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.preprocess((v) => text(v)?.trim() || undefined, z.enum(values, { error: message }).optional());

/** The list's filters; `status` "all" (or none, in the API) lists every status. */
export const flagFiltersSchema = z
  .object({
    reason: choice(INTEGRITY_REASONS, INTEGRITY_MESSAGES.reason),
    status: choice([...FLAG_STATUSES, "all"] as const, INTEGRITY_MESSAGES.status),
    branch: optionalId(INTEGRITY_MESSAGES.branch),
    /** A staff user by the slug of their page. */
    user: optionalText(40, INTEGRITY_MESSAGES.user).refine((v) => v === undefined || /^[A-Za-z0-9_-]+$/.test(v), {
      error: INTEGRITY_MESSAGES.user,
    }),
    ...dateRangeShape,
  })
  .superRefine(checkReadableRange);

export type FlagFilters = z.output<typeof flagFiltersSchema>;

/** The filter keys the list carries to its Download link. */
export const FLAG_FILTER_KEYS = ["reason", "status", "branch", "user", "from", "to"] as const;

export const FLAG_ACTIONS = ["clear", "hold", "void"] as const;
export type FlagAction = (typeof FLAG_ACTIONS)[number];

/** Head office's decision: clear (release the prizes), hold (keep them held) or void (never pay them), with a note. */
export const flagDecisionSchema = z.object({
  action: z.preprocess((v) => text(v)?.trim() || undefined, z.enum(FLAG_ACTIONS, { error: INTEGRITY_MESSAGES.action })),
  note: requiredText(1000, INTEGRITY_MESSAGES.note, INTEGRITY_MESSAGES.noteLong),
});

export type FlagDecision = z.output<typeof flagDecisionSchema>;
