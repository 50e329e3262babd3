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
  /**
   * Whether the server is busy with its visitors now: broadcast messages then go one per BUSY_PAUSE_MS at
   * most, codes and notices at the full rate. Each message sent is a write of its own, and a broadcast of
   * many thousands would take the write lock from the visitors' entries at the worst moment.
   */
  busy?: () => boolean;
};

/** While the server is busy, at most one broadcast message per this many ms (a trickle, never a stop). */
export const BUSY_PAUSE_MS = 250;

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
  busy = () => false,
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

  let yielded = false;
  let lastBroadcastAt = 0;
  const beforeEach = async (next: SmsMessage) => {
    // A broadcast gives way while the server is busy: the batch goes back to the queue, and the next
    // claim (codes first) comes after a pause.
    if (next.purpose === "broadcast" && Date.now() - lastBroadcastAt < BUSY_PAUSE_MS && busy()) {
      yielded = true;
      return false;
    }
    while (!stopping && Date.now() < nextSendAt) await pause(nextSendAt - Date.now());
    if (stopping) return false;
    if (next.purpose === "broadcast") lastBroadcastAt = Date.now();
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
        rows = await claimSms(batch, worker);
        if (rows.length) await sendClaimed(rows, provider(), worker, { beforeEach, dueNow });
      } catch (error) {
        console.error("[sms] worker:", error);
      }
      if (yielded) {
        yielded = false;
        if (!stopping) await pause(BUSY_PAUSE_MS);
      }
      // Nothing claimed, and nothing due either (a claim that only failed stale rows leaves more to look at).
      else if (!rows.length && !stopping && !hasDueSms()) await pause(intervalMs);
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
