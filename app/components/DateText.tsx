/**
 * A date as staff read it: the one display format (yyyy/MM/dd, Kathmandu
 * time) with the Bikram Sambat date beside it. `at` is an instant, `day` a
 * Kathmandu calendar date (YYYY-MM-DD); `time` adds the hour and minute.
 */
import { bsOfDate, displayDateTime, displayDay, kathmanduDate } from "~/utils/time";

export function DateText({ at, day, time = false }: { at?: string | null; day?: string | null; time?: boolean }) {
  const date = day ?? (at ? kathmanduDate(at) : null);
  if (!date) return null;
  const shown = at && time ? displayDateTime(at) : displayDay(date);
  const bs = bsOfDate(date);
  return (
    <span className="date-text">
      <time dateTime={at ?? date}>{shown}</time>
      {bs ? <span className="bs"> {bs} BS</span> : null}
    </span>
  );
}
