/**
 * The audit trail's list filters (page, download). From and To are Kathmandu
 * days typed as yyyy/MM/dd (yyyy-MM-dd and a date-time are read too).
 */
import { z } from "zod";
import { checkDateRange, DAY_MESSAGE, optionalDate, optionalText } from "./primitives";

export const auditFiltersSchema = z
  .object({
    action: optionalText(60),
    entity_type: optionalText(40),
    user: optionalText(100),
    from: optionalDate(DAY_MESSAGE),
    to: optionalDate(DAY_MESSAGE),
  })
  .superRefine(checkDateRange);
