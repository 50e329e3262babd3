/** Background work of a server process: the SMS queue at a bounded rate, and clean-ups. */
import { captchaStartupWarning } from "./captcha.server";
import { resumeBroadcasts } from "~/models/broadcast.server";
import { startSmsWorker } from "~/models/sms-worker.server";
import { purgeExpiredLimits } from "~/utils/rate-limit.server";
import { purgeExpiredSessions } from "./session.server";

/**
 * Starts the workers; returns stop(), which resolves once the SMS worker has
 * finished the message it is sending and put the rest it claimed back in the queue.
 */
export function startBackgroundWork(): () => Promise<void> {
  const warning = captchaStartupWarning();
  if (warning) console.warn(warning);
  const rate = Number(process.env.SMS_RATE_PER_SECOND ?? 5);
  const stopSms = startSmsWorker({ ratePerSecond: Number.isFinite(rate) && rate > 0 ? rate : 5 });
  // Broadcasts a stop interrupted while their messages were being stored carry on.
  const resumed = resumeBroadcasts();
  if (resumed) console.log(`[sms] storing the messages of ${resumed} broadcast(s) carries on`);
  const hourly = setInterval(() => {
    try {
      purgeExpiredSessions();
      purgeExpiredLimits();
    } catch (e) {
      console.error("[worker] session clean-up failed", e);
    }
  }, 3600_000);
  hourly.unref();
  return async () => {
    clearInterval(hourly);
    await stopSms();
  };
}
