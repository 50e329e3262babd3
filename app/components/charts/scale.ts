/**
 * The arithmetic of the charts: a round top for an axis, its ticks, and the
 * figures as text. Pure and deterministic, so the server's SVG and the
 * hydrated one are the same.
 */
import { formatRupees as rupeeText, groupDigits } from "~/utils/rupees";

/** The smallest 1, 2, 2.5 or 5 × 10^k at or above `max` (1 for nothing), so the axis ends on a round figure. */
export function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

/** `parts` + 1 evenly spaced ticks from 0 to `top` (whole numbers only when `top` allows). */
export function ticks(top: number, parts = 4): number[] {
  const n = top < parts && Number.isInteger(top) ? top : parts;
  return Array.from({ length: n + 1 }, (_, i) => (top * i) / n);
}

/** A count with Nepali digit grouping: 123456 → "1,23,456". */
export const formatCount = (n: number) => groupDigits(Math.round(n));

/** Rupees: "Rs. 1,23,456". */
export const formatRupees = (n: number) => rupeeText(Math.round(n));

/** A short axis figure: 1500 → "1.5K", 250000 → "2.5L" (lakh), 12000000 → "1.2Cr". */
export function shortFigure(n: number): string {
  const trim = (x: number) => String(Math.round(x * 10) / 10);
  if (n >= 10_000_000) return `${trim(n / 10_000_000)}Cr`;
  if (n >= 100_000) return `${trim(n / 100_000)}L`;
  if (n >= 1000) return `${trim(n / 1000)}K`;
  return trim(n);
}

/** A percentage with 2 decimals, "—" without a figure. */
export const formatPercent = (p: number | null) => (p === null ? "—" : `${p.toFixed(2)}%`);

/** "2026-11-21" → "2026/11/21" (the date format of the back office). */
export const slashDate = (date: string) => date.replaceAll("-", "/");

/** Shortens a label for an axis; the full text stays in the table and the bar's tooltip. */
export function clip(label: string, max = 24): string {
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
}

/** Colour-blind safe series colours (Okabe–Ito). */
export const SERIES_COLORS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9"] as const;
