/** Background work of a server process: the SMS queue at a bounded rate, and clean-ups. */
import { captchaStartupWarning } from "./captcha.server";
import { resumeBroadcasts } from "~/models/broadcast.server";
import { startSmsWorker } from "~/models/sms-worker.server";
import { serverBusy } from "~/http/admission.server";
import { probeBeacon } from "~/models/beacon.server";
import { announceNow } from "~/models/fair-observers.server";
import { drawLeftOver } from "~/models/prize-draw.server";
import { integrityEveryMinutes, runIntegrityJobApart } from "~/models/integrity-job.server";
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
  // Broadcasts give way to the visitors while the process is busy (codes never do).
  const stopSms = startSmsWorker({ ratePerSecond: Number.isFinite(rate) && rate > 0 ? rate : 5, busy: serverBusy });
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
  // The beacon looked at once, so a machine without it draws with the house seed at once; then
  // entries a stopped process left undrawn are drawn, and closed days told to the observers.
  void probeBeacon();
  const draws = setInterval(() => {
    drawLeftOver().catch((e: unknown) => console.error("[draws] drawing entries left behind failed", e));
    try {
      announceNow();
    } catch (e) {
      console.error("[draws] announcing closed days failed", e);
    }
  }, 15_000);
  draws.unref();
  // The integrity recompute (decision 21), in a child process so it never holds this one's event loop:
  // every process tries; the lease lets one run at a time.
  const every = integrityEveryMinutes();
  const integrity = every
    ? setInterval(() => {
        runIntegrityJobApart()
          .then((done) => {
            if (done)
              console.log(`[integrity] recomputed: ${done.findings} findings, ${done.raised} new flags, ${done.ms} ms`);
          })
          .catch((e: unknown) => console.error("[integrity] recompute failed", e));
      }, every * 60_000)
    : null;
  integrity?.unref();
  return async () => {
    clearInterval(hourly);
    clearInterval(draws);
    if (integrity) clearInterval(integrity);
    await stopSms();
  };
}
