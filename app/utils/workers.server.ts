/** Background work of a server process: clean-ups on a timer. */
import { purgeExpiredSessions } from "./session.server";

export function startBackgroundWork(): () => void {
  const timers: NodeJS.Timeout[] = [];
  const hourly = setInterval(() => {
    try {
      purgeExpiredSessions();
    } catch (e) {
      console.error("[worker] session clean-up failed", e);
    }
  }, 3600_000);
  hourly.unref();
  timers.push(hourly);
  return () => timers.forEach((t) => clearInterval(t));
}
