/** The audit trail's list filters (page, download). */
import { z } from "zod";
import { checkDateRange, dateRangeShape, optionalText } from "./primitives";

export const auditFiltersSchema = z
  .object({
    action: optionalText(60),
    entity_type: optionalText(40),
    user: optionalText(100),
    ...dateRangeShape,
  })
  .superRefine(checkDateRange);

export type AuditFiltersInput = z.output<typeof auditFiltersSchema>;
