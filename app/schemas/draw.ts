/**
 * The draw audit's filters (page, GET /api/v1/draws and Draws.xls): From and To as a Kathmandu day
 * (yyyy/MM/dd; yyyy-MM-dd is read too) or a day and hour (the page's hour selects, folded by
 * `foldHours`, or "yyyy-MM-dd HH:mm"), To not before From; a bad one is its message under its filter
 * (page) or 422 (API). The choice filters (pool type, branch, outcome, thrill) ignore a value that is
 * not one of their choices, as a link from an older page may carry one.
 */
import { z } from "zod";
import { ALLOCATION_TYPES } from "@db/enums";
import {
  checkReadableRange,
  DAY_MESSAGE,
  optionalChoice,
  optionalDate,
  optionalFilterId,
  toNumber,
} from "./primitives";

export const DRAW_OUTCOMES = ["pool", "fallback", "none"] as const;

export const drawFiltersSchema = z
  .object({
    from: optionalDate(DAY_MESSAGE),
    to: optionalDate(DAY_MESSAGE),
    pool_type: optionalChoice(ALLOCATION_TYPES),
    branch_id: optionalFilterId(),
    outcome: optionalChoice(DRAW_OUTCOMES),
    thrill: z.preprocess(
      toNumber,
      z
        .union([z.literal(2), z.literal(3)])
        .optional()
        .catch(undefined),
    ),
  })
  .superRefine(checkReadableRange);
