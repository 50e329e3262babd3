/** Background work of a server process: the SMS queue (broadcasts) at a bounded rate, and clean-ups. */
import { startSmsWorker } from "~/models/sms.server";
import { purgeExpiredLimits } from "./rate-limit.server";
import { purgeExpiredSessions } from "./session.server";

export function startBackgroundWork(): () => void {
  const stopSms = startSmsWorker({ ratePerSecond: Number(process.env.SMS_RATE_PER_SECOND ?? 5) });
  const hourly = setInterval(() => {
    try {
      purgeExpiredSessions();
      purgeExpiredLimits();
    } catch (e) {
      console.error("[worker] session clean-up failed", e);
    }
  }, 3600_000);
  hourly.unref();
  return () => {
    stopSms();
    clearInterval(hourly);
  };
}
