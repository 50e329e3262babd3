/**
 * Tests that read "today" in Kathmandu and then act on it (a scheme for today, a filter From = To =
 * today) would meet a different day if a Kathmandu midnight fell in between. Before such a test,
 * `clearOfKathmanduMidnight` waits out the last seconds before a midnight (less than the test's timeout), so the day cannot turn under it.
 */
const KATHMANDU_OFFSET_MS = (5 * 60 + 45) * 60_000;
const DAY_MS = 86_400_000;

/** Milliseconds until the next midnight in Kathmandu. */
export function untilKathmanduMidnight(at = Date.now()): number {
  return DAY_MS - ((at + KATHMANDU_OFFSET_MS) % DAY_MS);
}

/** Resolves at once, or just after the coming Kathmandu midnight when it is less than `marginMs` away. */
export async function clearOfKathmanduMidnight(marginMs = 40_000): Promise<void> {
  const left = untilKathmanduMidnight();
  if (left < marginMs) await new Promise((r) => setTimeout(r, left + 1000));
}

/** The Kathmandu date `days` from today (yyyy-MM-dd), by the offset alone (Nepal keeps no daylight saving). */
export function kathmanduToday(days = 0, at = Date.now()): string {
  return new Date(at + KATHMANDU_OFFSET_MS + days * DAY_MS).toISOString().slice(0, 10);
}

/** A clock for setClock that starts at `startIso` and runs at the real pace (draws fixed now, drawn seconds later). */
export function movingClock(startIso: string): () => Date {
  const offset = Date.parse(startIso) - Date.now();
  return () => new Date(Date.now() + offset);
}
