/**
 * Campaign time. Every "date", "today" and "yesterday" is a calendar day in
 * Asia/Kathmandu (UTC+05:45), whatever the server's zone. The clock is
 * replaceable so tests can stand on either side of a Kathmandu midnight.
 */
import { TZDate } from "@date-fns/tz";
// The two functions by their own paths: the package's index would load all of date-fns (about 10 MB of a server's memory).
import { addDays } from "date-fns/addDays";
import { format } from "date-fns/format";
import NepaliDateModule from "nepali-date-converter";

export const CAMPAIGN_TZ = "Asia/Kathmandu";

let clockOverride: (() => Date) | null = null;

export function now(): Date {
  return clockOverride ? clockOverride() : new Date();
}

/** Tests only: fix or free the clock. */
export function setClock(fn: (() => Date) | null) {
  clockOverride = fn;
}

export function nowIso(): string {
  return now().toISOString();
}

/** Whole seconds from now until an instant (0 once it has passed). */
export function secondsUntil(at: string): number {
  return Math.max(0, Math.ceil((Date.parse(at) - now().getTime()) / 1000));
}

/**
 * Nepal has kept one offset, UTC+05:45, since 1986 and has no daylight saving,
 * so the Kathmandu wall clock of any instant since then is the UTC clock moved
 * by 345 minutes: far cheaper than a time-zone lookup per cell of a 100k-row
 * export. Earlier instants go through the time-zone database.
 */
const OFFSET_MS = (5 * 60 + 45) * 60_000;
const FIXED_SINCE = Date.UTC(1986, 0, 1);

/** "YYYY-MM-DDTHH:mm:ss.sssZ" of the Kathmandu wall clock (the Z is not meaningful), or null before 1986. */
function wallClock(ms: number): string | null {
  return ms >= FIXED_SINCE && Number.isFinite(ms) ? new Date(ms + OFFSET_MS).toISOString() : null;
}

const toMs = (at: Date | string) => (typeof at === "string" ? Date.parse(at) : at.getTime());

/** The Kathmandu calendar date (YYYY-MM-DD) of an instant. */
export function kathmanduDate(at: Date | string = now()): string {
  const ms = toMs(at);
  return wallClock(ms)?.slice(0, 10) ?? format(new TZDate(ms, CAMPAIGN_TZ), "yyyy-MM-dd");
}

/** The Kathmandu date `days` after (or before) a Kathmandu date. */
export function shiftDate(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number);
  return format(addDays(new Date(Date.UTC(y, m - 1, d, 12)), days), "yyyy-MM-dd");
}

/** The UTC instants [start, end) of a Kathmandu calendar day, as ISO strings. */
export function kathmanduDayRange(date: string): { start: string; end: string } {
  const [y, m, d] = date.split("-").map(Number);
  const start = new TZDate(y, m - 1, d, 0, 0, 0, 0, CAMPAIGN_TZ);
  const end = new TZDate(y, m - 1, d + 1, 0, 0, 0, 0, CAMPAIGN_TZ);
  return { start: new Date(start.getTime()).toISOString(), end: new Date(end.getTime()).toISOString() };
}

/** A Kathmandu wall-clock date-time ("2026-11-21T14:00" or "2026-11-21") as a UTC ISO instant. */
export function kathmanduToUtc(local: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/.exec(local);
  if (!m) throw new Error(`Not a date: ${local}`);
  const t = new TZDate(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), 0, 0, CAMPAIGN_TZ);
  return new Date(t.getTime()).toISOString();
}

/**
 * The UTC bounds [from, to) of a list's from/to filter given as Kathmandu
 * dates ("to" as a date is inclusive: its whole day) or wall-clock
 * date-times. Values must already be checked (app/schemas/primitives.ts).
 * One rule for every list, download and report: from=to=a day is that day.
 */
export function kathmanduBounds(from?: string | null, to?: string | null): { from: string | null; to: string | null } {
  const dayOnly = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s);
  return {
    from: from ? kathmanduToUtc(from) : null,
    to: to ? (dayOnly(to) ? kathmanduDayRange(to).end : kathmanduToUtc(to)) : null,
  };
}

/** Display format of the spec ("YYY/MM/dd" there; shown here as yyyy/MM/dd in Kathmandu time). */
export function displayDate(at: Date | string): string {
  const ms = toMs(at);
  const w = wallClock(ms);
  return w ? `${w.slice(0, 4)}/${w.slice(5, 7)}/${w.slice(8, 10)}` : format(new TZDate(ms, CAMPAIGN_TZ), "yyyy/MM/dd");
}

/**
 * The last stored instant's minute ("YYYY-MM-DDTHH:mm" of "…ss.sssZ") and how it was shown: a list
 * or an export reads rows in time order, so most cells show their neighbour's minute, and the
 * fixed offset is whole minutes, so the UTC minute alone decides what is shown.
 */
let lastMinute = "";
let lastShown = "";

export function displayDateTime(at: Date | string): string {
  const stored = typeof at === "string" && at.length === 24 && at.charCodeAt(23) === 90; // …Z, as nowIso() writes
  if (stored && at.startsWith(lastMinute) && lastMinute) return lastShown;
  const ms = toMs(at);
  const w = wallClock(ms);
  if (!w) return format(new TZDate(ms, CAMPAIGN_TZ), "yyyy/MM/dd HH:mm");
  const shown = `${w.slice(0, 4)}/${w.slice(5, 7)}/${w.slice(8, 10)} ${w.slice(11, 16)}`;
  if (stored) {
    lastMinute = at.slice(0, 16);
    lastShown = shown;
  }
  return shown;
}

/**
 * Bikram Sambat, the calendar staff and customers in Nepal read beside the
 * Gregorian one. Converted by nepali-date-converter (its month table covers
 * 2000 to 2090 BS, 1943 to 2034 AD); a day outside it has no BS date and shows none.
 */
type NepaliDateClass = typeof NepaliDateModule;
const NepaliDate: NepaliDateClass =
  (NepaliDateModule as unknown as { default?: NepaliDateClass }).default ?? NepaliDateModule;
const bsCache = new Map<string, string>();

/** The BS date (yyyy/MM/dd) of a Kathmandu calendar date "YYYY-MM-DD", or "" outside the table. */
export function bsOfDate(date: string): string {
  const cached = bsCache.get(date);
  if (cached !== undefined) return cached;
  const [y, m, d] = date.split("-").map(Number);
  let out = "";
  try {
    const bs = NepaliDate.fromAD(new Date(y, m - 1, d, 12));
    // Outside its table the converter may answer a wrong day: keep only a date that converts back.
    const ad = bs.getAD();
    if (ad.year === y && ad.month === m - 1 && ad.date === d) out = bs.format("YYYY/MM/DD");
  } catch {
    out = "";
  }
  if (bsCache.size > 5000) bsCache.clear();
  bsCache.set(date, out);
  return out;
}

/** The BS date (yyyy/MM/dd) of an instant's Kathmandu day. */
export const displayBsDate = (at: Date | string): string => bsOfDate(kathmanduDate(at));

/** The Gregorian date of a BS date "yyyy/MM/dd" as "YYYY-MM-DD" (tests and conversions). */
export function adOfBs(bs: string): string {
  const { year, month, date } = new NepaliDate(bs).getAD();
  return `${year}-${String(month + 1).padStart(2, "0")}-${String(date).padStart(2, "0")}`;
}

/** A Kathmandu calendar date "YYYY-MM-DD" in the display format yyyy/MM/dd. */
export const displayDay = (date: string): string => date.replaceAll("-", "/");
