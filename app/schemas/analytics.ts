/**
 * The analytics page's date range (page and GET /api/v1/analytics): `from` and
 * `to` are Asia/Kathmandu calendar days (yyyy/MM/dd as typed, or yyyy-MM-dd),
 * both included, both optional (the default is the campaign so far). Days
 * only: every figure of the page is counted by day. At most MAX_RANGE_DAYS
 * days, so a range stays one chart wide.
 */
import { z } from "zod";
import { bothDays, DAY_MESSAGE, optionalDay } from "./primitives";

export const MAX_RANGE_DAYS = 366;

export const ANALYTICS_MESSAGES = {
  date: DAY_MESSAGE,
  toBeforeFrom: "The end date must be on or after the start date.",
  tooLong: `The range may cover at most ${MAX_RANGE_DAYS} days.`,
} as const;

/** Days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

export const analyticsRangeSchema = z
  .object({ from: optionalDay(ANALYTICS_MESSAGES.date), to: optionalDay(ANALYTICS_MESSAGES.date) })
  .superRefine((value, ctx) => {
    // Only two days that read are compared (a field's own message is enough otherwise).
    const range = bothDays(value);
    if (!range) return;
    if (range.to < range.from) ctx.addIssue({ code: "custom", path: ["to"], message: ANALYTICS_MESSAGES.toBeforeFrom });
    else if (daysBetween(range.from, range.to) > MAX_RANGE_DAYS)
      ctx.addIssue({ code: "custom", path: ["to"], message: ANALYTICS_MESSAGES.tooLong });
  });

export type AnalyticsRangeInput = z.output<typeof analyticsRangeSchema>;
