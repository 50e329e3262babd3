/**
 * The referrer report's filters (page, GET /api/v1/referrer, its download):
 * From and To as Kathmandu days, written yyyy/MM/dd as the report shows them
 * (yyyy-MM-dd, the date picker's value, is read too); a To day includes its
 * whole day; To may not come before From. A bad value is its message under
 * its filter (page, 422) or 422 {message, errors} (API).
 */
import { z } from "zod";
import { text as asText, TO_BEFORE_FROM } from "./primitives";

export const REFERRER_DATE_MESSAGE = "Enter the date as yyyy/MM/dd.";

function isCalendarDate(y: number, m: number, d: number): boolean {
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}

/** "2026/11/21" or "2026-11-21" as "2026-11-21"; null when it is not a real date. */
export function readReportDate(value: string): string | null {
  const m = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/.exec(value.trim());
  if (!m || !isCalendarDate(+m[1], +m[2], +m[3])) return null;
  return `${m[1]}-${m[2].padStart(2, "0")}-${m[3].padStart(2, "0")}`;
}

/** "2026-11-21" as the report shows it: "2026/11/21". */
export const showReportDate = (iso: string) => iso.replaceAll("-", "/");

const reportDate = z.preprocess(
  (v) => asText(v)?.trim() || undefined,
  z
    .string()
    .refine((s) => readReportDate(s) !== null, { error: REFERRER_DATE_MESSAGE })
    .transform((s) => readReportDate(s)!)
    .optional(),
);

export const referrerFiltersSchema = z
  .object({
    from: reportDate,
    to: reportDate,
    /** The referrer's name (first 100 characters). */
    search: z.preprocess((v) => asText(v)?.trim().slice(0, 100) || undefined, z.string().optional()),
  })
  .superRefine((value, ctx) => {
    if (value.from && value.to && value.to < value.from) {
      ctx.addIssue({ code: "custom", path: ["to"], message: TO_BEFORE_FROM });
    }
  });

export type ReferrerFilters = z.output<typeof referrerFiltersSchema>;
