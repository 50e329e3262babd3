/**
 * The background SMS sender of one process (started by app/http/workers.server.ts):
 * it takes over its slot's earlier claims, then claims due messages (codes first)
 * and hands them to the provider at SMS_RATE_PER_SECOND, with the event loop free
 * between steps; its stop lets the message with the provider finish and puts the
 * rest back in the queue. The queue is app/models/sms.server.ts; the claims and
 * the hand-over, app/models/sms-delivery.server.ts.
 */
import type { SmsMessage } from "@db/schema";
import { smsProvider, type SmsProvider } from "./sms-provider.server";
import { onSmsQueued } from "./sms.server";
import {
  claimSms,
  hasDueSms,
  MAX_CLAIM,
  recoverSmsClaims,
  sendClaimed,
  smsWorkerId,
  smsWorkerSlot,
} from "./sms-delivery.server";

export type SmsWorkerOptions = {
  /** Messages per second, all purposes together (SMS_RATE_PER_SECOND). */
  ratePerSecond: number;
  /** How often an idle worker looks at the queue (ms). */
  intervalMs?: number;
  provider?: () => SmsProvider;
  slot?: string;
};

/**
 * Background sender. Takes over the claims of this slot's earlier runs, then
 * loops: claim a few due messages (codes first), send them one by one at most
 * `ratePerSecond`, with the event loop free between steps. Returns stop(): no
 * new message is handed over, the one with the provider finishes, the claimed
 * rest goes back to the queue; it resolves when that is done.
 */
export function startSmsWorker({
  ratePerSecond,
  intervalMs = 1000,
  provider = smsProvider,
  slot = smsWorkerSlot(),
}: SmsWorkerOptions): () => Promise<void> {
  const worker = smsWorkerId(slot);
  const rate = ratePerSecond > 0 ? ratePerSecond : 5;
  const gapMs = 1000 / rate;
  const batch = Math.max(1, Math.min(MAX_CLAIM, Math.ceil(rate)));
  let stopping = false;
  let nudge: (() => void) | null = null;
  let nextSendAt = 0;

  /** Waits `ms` or until woken (a new message, stop). */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        nudge = null;
        resolve();
      }
      nudge = done;
    });
  const unsubscribe = onSmsQueued(() => nudge?.());

  const beforeEach = async () => {
    while (!stopping && Date.now() < nextSendAt) await pause(nextSendAt - Date.now());
    if (stopping) return false;
    nextSendAt = Math.max(Date.now(), nextSendAt) + gapMs;
    return true;
  };

  /** Whether the next hand-over may go now (the last outcome then shares its commit). */
  const dueNow = () => Date.now() >= nextSendAt;

  const loop = (async () => {
    try {
      const found = recoverSmsClaims(slot, worker);
      if (found) console.log(`[sms] ${found} message(s) left claimed by an earlier run are back in the queue`);
    } catch (error) {
      console.error("[sms] recovery failed", error);
    }
    while (!stopping) {
      let rows: SmsMessage[] = [];
      try {
        rows = claimSms(batch, worker);
        if (rows.length) await sendClaimed(rows, provider(), worker, { beforeEach, dueNow });
      } catch (error) {
        console.error("[sms] worker:", error);
      }
      // Nothing claimed, and nothing due either (a claim that only failed stale rows leaves more to look at).
      if (!rows.length && !stopping && !hasDueSms()) await pause(intervalMs);
      else await new Promise((resolve) => setImmediate(resolve));
    }
  })();

  return async () => {
    stopping = true;
    unsubscribe();
    nudge?.();
    await loop;
  };
}
