/**
 * The filters of the counter grants list (its page, GET /api/v1/preregistration/grants and Grants.xls):
 * the branch that was granted (head office only; a branch user sees its own) and the From/To range of
 * when (Kathmandu days, or a day and an hour). A bad value is a field error under its filter (page) or
 * 422 (API, download).
 */
import { z } from "zod";
import { checkReadableRange, dateRangeShape, optionalId } from "./primitives";

export const grantFiltersSchema = z
  .object({ branch: optionalId("Choose a branch from the list."), ...dateRangeShape })
  .superRefine(checkReadableRange);

export type GrantFilters = z.output<typeof grantFiltersSchema>;

/** The filter keys the list carries to its Download link. */
export const GRANT_FILTER_KEYS = ["branch", "from", "to"] as const;
