/**
 * The referrer report's filters (page, GET /api/v1/referrer, its download):
 * From and To as Kathmandu days, written yyyy/MM/dd as the report shows them
 * (yyyy-MM-dd, of old links and API clients, is read too); a To day includes its
 * whole day; To may not come before From. A bad value is its message under
 * its filter (page, 422) or 422 {message, errors} (API).
 */
import { z } from "zod";
import { bothDays, DAY_MESSAGE, optionalDay, text as asText, TO_BEFORE_FROM } from "./primitives";

export const REFERRER_DATE_MESSAGE = DAY_MESSAGE;

/** "2026-11-21" as the report shows it: "2026/11/21". */
export const showReportDate = (iso: string) => iso.replaceAll("-", "/");

const reportDate = optionalDay(REFERRER_DATE_MESSAGE);

export const referrerFiltersSchema = z
  .object({
    from: reportDate,
    to: reportDate,
    /** The referrer's name (first 100 characters). */
    search: z.preprocess((v) => asText(v)?.trim().slice(0, 100) || undefined, z.string().optional()),
  })
  .superRefine((value, ctx) => {
    // Only two days that read are compared (a field's own message is enough otherwise).
    const range = bothDays(value);
    if (range && range.to < range.from) {
      ctx.addIssue({ code: "custom", path: ["to"], message: TO_BEFORE_FROM });
    }
  });

export type ReferrerFilters = z.output<typeof referrerFiltersSchema>;
