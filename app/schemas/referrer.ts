/**
 * The referrer report's filters (page, GET /api/v1/referrer, its download):
 * From and To as Kathmandu days, written yyyy/MM/dd as the report shows them
 * (yyyy-MM-dd, of old links and API clients, is read too), or a day and hour
 * (the page's hour selects, folded by `foldHours`; "yyyy-MM-dd HH:mm" in the API);
 * a To day includes its whole day, a To hour runs to its end; To may not come
 * before From. A bad value is its message under its filter (page) or 422
 * {message, errors} (API).
 */
import { z } from "zod";
import { checkReadableRange, DAY_MESSAGE, optionalDate, text as asText } from "./primitives";

export const REFERRER_DATE_MESSAGE = DAY_MESSAGE;

/**
 * A From or To bound as the report shows it: "2026-11-21" → "2026/11/21"; From "2026-11-21 13:00" →
 * "2026/11/21 13:00"; To "2026-11-21 14:00" (its hour's end, not included) → "2026/11/21 13:59".
 */
export function showReportDate(iso: string, end = false): string {
  const v = iso.replace("T", " ").slice(0, 16);
  if (v.length === 10 || !end) return v.replaceAll("-", "/");
  const at = new Date(`${v.replace(" ", "T")}:00Z`);
  at.setUTCMinutes(at.getUTCMinutes() - 1);
  return `${at.toISOString().slice(0, 10).replaceAll("-", "/")} ${at.toISOString().slice(11, 16)}`;
}

const reportDate = optionalDate(REFERRER_DATE_MESSAGE);

export const referrerFiltersSchema = z
  .object({
    from: reportDate,
    to: reportDate,
    /** The referrer's name (first 100 characters). */
    search: z.preprocess((v) => asText(v)?.trim().slice(0, 100) || undefined, z.string().optional()),
  })
  .superRefine(checkReadableRange);

export type ReferrerFilters = z.output<typeof referrerFiltersSchema>;
