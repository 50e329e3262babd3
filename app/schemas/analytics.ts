/**
 * The analytics page's date range (page and GET /api/v1/analytics): `from` and
 * `to` are Asia/Kathmandu calendar days, both included, both optional (the
 * default is the campaign so far). Days only: every figure of the page is
 * counted by day. At most MAX_RANGE_DAYS days, so a range stays one chart wide.
 */
import { z } from "zod";
import { isIsoDate } from "~/utils/time";
import { text } from "./primitives";

export const MAX_RANGE_DAYS = 366;

export const ANALYTICS_MESSAGES = {
  date: "Enter the date as YYYY-MM-DD.",
  toBeforeFrom: "The end date must be on or after the start date.",
  tooLong: `The range may cover at most ${MAX_RANGE_DAYS} days.`,
} as const;

function isCalendarDay(value: string): boolean {
  if (!isIsoDate(value)) return false;
  const [y, m, d] = value.split("-").map(Number);
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}

const day = () =>
  z.preprocess(
    (v) => text(v)?.trim() || undefined,
    z.string().refine(isCalendarDay, { error: ANALYTICS_MESSAGES.date }).optional(),
  );

/** Days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

export const analyticsRangeSchema = z.object({ from: day(), to: day() }).superRefine((value, ctx) => {
  // Only two days that read are compared (a field's own message is enough otherwise).
  if (!value.from || !value.to || !isCalendarDay(value.from) || !isCalendarDay(value.to)) return;
  if (value.to < value.from) ctx.addIssue({ code: "custom", path: ["to"], message: ANALYTICS_MESSAGES.toBeforeFrom });
  else if (daysBetween(value.from, value.to) > MAX_RANGE_DAYS)
    ctx.addIssue({ code: "custom", path: ["to"], message: ANALYTICS_MESSAGES.tooLong });
});

export type AnalyticsRangeInput = z.output<typeof analyticsRangeSchema>;
