/**
 * The SMS delivery: each queued message (sms.server.ts) is handed to the
 * provider chosen by configuration (SMS_PROVIDER: "outbox" by default, or
 * "http" for the Nepali SMS gateway) and kept with its status (queued, sent,
 * failed), provider reply and error.
 *
 * Delivery (docs/decisions/0008-sms-delivery.md):
 * - A queued message is claimed by one worker before it is sent (claimed_by,
 *   and due_at as the claim's lease), is marked as "with the provider"
 *   (sending_at) just before the hand-over, and its outcome is recorded in the
 *   same write that releases the claim. So two workers never send one message,
 *   and a message whose outcome was recorded is never sent again.
 * - A failure that may pass (timeout, network, HTTP 5xx, account or credit
 *   errors) puts the message back in the queue after a backoff; after
 *   SMS_RETRY.maxAttempts tries, or a failure about the message itself
 *   (invalid number), it ends `failed` with the provider's reason.
 * - A claim whose worker died (lease over, or the same worker slot started
 *   again) goes back to the queue; a message that was with the provider when
 *   its worker died is failed as "delivery unknown", never sent a second time.
 *   A code's message not sent while the code is valid is failed too, and
 *   `codeDelivery` tells the caller so the visitor can ask for a new code.
 * - Codes go before single notices, and those before broadcasts (priority,
 *   one index range per priority).
 *
 * Broadcast messages move their sms_broadcasts counters (sent, failed; status
 * "sending", then "done" once sent + failed reaches total) when they end.
 *
 * Beside it: the queue (sms.server.ts), the providers (sms-provider.server.ts),
 * the background worker (sms-worker.server.ts) and the staff's outbox (sms-outbox.server.ts).
 */
import os from "node:os";
import { and, eq, inArray, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import type { SmsMessage } from "@db/schema";
import { randomToken } from "~/utils/crypto.server";
import { likePrefix } from "~/utils/datatable.server";
import { normalizePhone } from "~/utils/phone";
import { now, nowIso } from "~/utils/time";
import { transactTogether } from "./transaction.server";
import { GATEWAY_TIMEOUT_MS, smsProvider, type SmsProvider, type SmsSendResult } from "./sms-provider.server";
import { later, newRow, SMS_PRIORITY, type NewRow, type SendSmsInput } from "./sms.server";

const { smsMessages: M, smsBroadcasts } = schema;

/** Claims are taken priority by priority, lower first. */
const PRIORITIES = [SMS_PRIORITY.code, SMS_PRIORITY.notice, SMS_PRIORITY.broadcast];

/**
 * Retries of queued messages: at most `maxAttempts` hand-overs to the provider,
 * waiting `delaysMs[n - 1]` after the n-th failed one. Codes retry sooner (the
 * visitor is waiting, the code lives 10 minutes); other messages ride out a
 * gateway outage of about 40 minutes.
 */
export const SMS_RETRY = {
  maxAttempts: 5,
  codeDelaysMs: [10_000, 30_000, 60_000, 120_000],
  delaysMs: [30_000, 120_000, 480_000, 1_800_000],
} as const;

/** A claimed message not yet handed over goes back to the queue after this (its worker is taken as dead). */
export const CLAIM_LEASE_MS = 60_000;
/** A message with the provider is held for the provider's timeout plus this margin. */
const SEND_LEASE_MARGIN_MS = 30_000;
/** The most messages one claim takes (one short transaction; keeps each step of the worker well under 50 ms). */
export const MAX_CLAIM = 50;
/**
 * Rows one claim looks at, failed ones included: a backlog of codes that expired while no worker ran
 * (a restart after an outage) is failed a short transaction at a time, not all in one.
 */
export const MAX_CLAIM_LOOK = 2 * MAX_CLAIM;

export const INTERRUPTED_ERROR =
  "The server stopped while this SMS was with the gateway; it may not have been delivered.";
export const EXPIRED_ERROR = "The code expired before its SMS could be sent.";

// ---------------------------------------------------------------- workers

/**
 * This process's worker slot: SMS_WORKER_ID, else host and port. Live
 * processes on one database must have distinct slots (they do when each
 * listens on its own port); a process starting in a slot takes the claims
 * its dead predecessor in that slot left behind.
 */
export function smsWorkerSlot(): string {
  return process.env.SMS_WORKER_ID || `${os.hostname()}:${process.env.PORT ?? 3000}`;
}

const BOOT = randomToken(6);

/** The owner written on this process's claims: its slot and this start's nonce. */
export function smsWorkerId(slot = smsWorkerSlot()): string {
  return `${slot}#${BOOT}`;
}

// ---------------------------------------------------------------- sending

/**
 * Stores the message and sends it now, once (no retry); resolves with the
 * stored row once it is sent or failed. An invalid mobile number fails without
 * reaching the provider. For messages that may wait and should be retried, use
 * `queueMessage` / `queueSms`.
 */
export async function sendSms(input: SendSmsInput, provider: SmsProvider = smsProvider()): Promise<SmsMessage> {
  const worker = smsWorkerId();
  const at = now();
  // Stored already claimed by this call, so no worker takes it meanwhile.
  const row = db
    .insert(M)
    .values({ ...newRow(input, provider.name, at), claimed_by: worker, due_at: later(CLAIM_LEASE_MS, at) })
    .returning()
    .get();
  const outcome = await deliver(row, provider, worker, { retry: false });
  return outcome.row;
}

type Outcome = { kind: "sent" | "failed" | "retry" | "lost"; row: SmsMessage };

/** A message handed to the provider, its outcome not yet recorded. */
type Handed = { row: SmsMessage; result: SmsSendResult };

const NOT_A_MOBILE: SmsSendResult = { ok: false, reply: "", error: "Invalid mobile number", permanent: true };

/**
 * Marks a claimed message as with the provider (inside `exec`), only while this worker still holds it;
 * undefined when the claim was lost.
 */
function markSending(exec: Executor, row: SmsMessage, provider: SmsProvider, worker: string) {
  const at = now();
  return exec
    .update(M)
    .set({
      sending_at: at.toISOString(),
      attempts: sql`${M.attempts} + 1`,
      due_at: later((provider.timeoutMs ?? GATEWAY_TIMEOUT_MS) + SEND_LEASE_MARGIN_MS, at),
    })
    .where(and(eq(M.id, row.id), eq(M.claimed_by, worker), eq(M.status, "queued"), isNull(M.sending_at)))
    .returning()
    .get();
}

/** Hands a marked message to the provider; a thrown error is a failed send. */
async function handOver(row: SmsMessage, provider: SmsProvider): Promise<Handed> {
  try {
    return { row, result: await provider.send(row.to, row.text) };
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    return { row, result: { ok: false, reply: "", error: `SMS provider failed: ${message}` } };
  }
}

/**
 * Sends one claimed message: marks it as with the provider (only while this
 * worker still holds it), hands it over, records the outcome.
 */
async function deliver(
  row: SmsMessage,
  provider: SmsProvider,
  worker: string,
  { retry }: { retry: boolean },
): Promise<Outcome> {
  if (!normalizePhone(row.to)) return record(row, provider.name, worker, NOT_A_MOBILE, false);
  const taken = markSending(db, row, provider, worker);
  if (!taken) return { kind: "lost", row };
  const handed = await handOver(taken, provider);
  return record(handed.row, provider.name, worker, handed.result, retry);
}

function retryDelay(row: Pick<SmsMessage, "priority" | "attempts">): number {
  const delays = row.priority === SMS_PRIORITY.code ? SMS_RETRY.codeDelaysMs : SMS_RETRY.delaysMs;
  return delays[Math.min(row.attempts, delays.length) - 1] ?? delays[delays.length - 1];
}

/** Moves a broadcast's counters for one message that ended. */
function countBroadcast(exec: Executor, broadcastId: number | null, sent: boolean) {
  if (broadcastId == null) return;
  // SET expressions read the old column values.
  exec
    .update(smsBroadcasts)
    .set({
      sent: sql`${smsBroadcasts.sent} + ${sent ? 1 : 0}`,
      failed: sql`${smsBroadcasts.failed} + ${sent ? 0 : 1}`,
      status: sql`case when ${smsBroadcasts.total} > 0 and ${smsBroadcasts.sent} + ${smsBroadcasts.failed} + 1 >= ${smsBroadcasts.total} then 'done' else 'sending' end`,
    })
    .where(eq(smsBroadcasts.id, broadcastId))
    .run();
}

/** Ends a message as failed (inside `exec`), moving its broadcast's counters. */
function failRow(exec: Executor, row: SmsMessage, error: string, extra: Partial<NewRow> = {}): SmsMessage {
  const updated = exec
    .update(M)
    .set({ status: "failed", error, claimed_by: null, sending_at: null, ...extra })
    .where(eq(M.id, row.id))
    .returning()
    .get();
  countBroadcast(exec, row.broadcast_id, false);
  return updated ?? row;
}

/**
 * Records a hand-over's outcome and releases the claim in the same write:
 * sent; back to the queue after a backoff; or failed with the reason.
 */
function record(row: SmsMessage, providerName: string, worker: string, result: SmsSendResult, retry: boolean): Outcome {
  return db.transaction((tx) => recordIn(tx, row, providerName, worker, result, retry), { behavior: "immediate" });
}

/** Records a handed-over message's outcome inside `tx`, releasing its claim. */
function recordIn(
  tx: Executor,
  row: SmsMessage,
  providerName: string,
  worker: string,
  result: SmsSendResult,
  retry: boolean,
): Outcome {
  const mine = and(eq(M.id, row.id), eq(M.claimed_by, worker), eq(M.status, "queued"));
  const at = now();
  if (result.ok) {
    const sent = tx
      .update(M)
      .set({
        status: "sent",
        provider: providerName,
        provider_reply: result.reply || null,
        error: null,
        sent_at: at.toISOString(),
        claimed_by: null,
        sending_at: null,
      })
      .where(mine)
      .returning()
      .get();
    if (!sent) return lostClaim(row, result);
    countBroadcast(tx, row.broadcast_id, true);
    return { kind: "sent", row: sent };
  }
  const reason = result.error ?? "SMS could not be sent";
  const nextDue = later(retryDelay(row), at);
  const giveUp =
    !retry ||
    result.permanent ||
    row.attempts >= SMS_RETRY.maxAttempts ||
    (row.valid_until != null && nextDue >= row.valid_until);
  if (!giveUp) {
    const queued = tx
      .update(M)
      .set({
        provider: providerName,
        provider_reply: result.reply || null,
        error: reason,
        claimed_by: null,
        sending_at: null,
        due_at: nextDue,
      })
      .where(mine)
      .returning()
      .get();
    return queued ? { kind: "retry", row: queued } : lostClaim(row, result);
  }
  const current = tx.select().from(M).where(mine).get();
  if (!current) return lostClaim(row, result);
  const error = row.attempts > 1 ? `${reason} (gave up after ${row.attempts} attempts)` : reason;
  return {
    kind: "failed",
    row: failRow(tx, current, error, { provider: providerName, provider_reply: result.reply || null }),
  };
}

/** The claim was taken over meanwhile (this worker stalled past its lease): the other worker decides. */
function lostClaim(row: SmsMessage, result: SmsSendResult): Outcome {
  console.error(
    `[sms] message ${row.id}: claim lost before its outcome was recorded (${result.ok ? "sent" : result.error})`,
  );
  return { kind: "lost", row };
}

/**
 * The queued messages of one priority due by `iso`, in due order: one range
 * of sms_messages_claim_idx (status, priority, due_at), already in index order.
 */
export function dueRows(exec: Executor, priority: number, iso: string, limit: number) {
  return exec
    .select()
    .from(M)
    .where(and(eq(M.status, "queued"), eq(M.priority, priority), lte(M.due_at, iso)))
    .orderBy(M.due_at, M.id)
    .limit(limit);
}

/**
 * Claims up to `limit` queued messages that are due, codes first: one range
 * of the claim index per priority, in one short transaction. A message left
 * by a dead worker while it was with the provider, or a code's message past
 * its code's life, is failed here instead of being returned; one claim looks
 * at no more than MAX_CLAIM_LOOK rows, so it may return fewer (even none)
 * while due rows remain. A write in the process's shared commits, as the
 * sender's others: while another process holds the write lock, the claim
 * waits by timer and the process answers its visitors meanwhile.
 */
export async function claimSms(limit: number, worker = smsWorkerId()): Promise<SmsMessage[]> {
  const want = Math.min(MAX_CLAIM, Math.max(0, Math.floor(limit)));
  if (!want) return [];
  return together((tx) => {
    const at = now();
    const iso = at.toISOString();
    const claimed: SmsMessage[] = [];
    let looked = 0;
    for (const priority of PRIORITIES) {
      while (claimed.length < want && looked < MAX_CLAIM_LOOK) {
        const rows = dueRows(tx, priority, iso, Math.min(want - claimed.length, MAX_CLAIM_LOOK - looked)).all();
        if (!rows.length) break;
        looked += rows.length;
        const fresh: number[] = [];
        for (const row of rows) {
          if (row.claimed_by && row.sending_at) failRow(tx, row, INTERRUPTED_ERROR);
          else if (row.valid_until && row.valid_until <= iso) failRow(tx, row, EXPIRED_ERROR);
          else fresh.push(row.id);
        }
        if (fresh.length) {
          claimed.push(
            ...tx
              .update(M)
              .set({ claimed_by: worker, due_at: later(CLAIM_LEASE_MS, at), sending_at: null })
              .where(inArray(M.id, fresh))
              .returning()
              .all()
              .sort((a, b) => a.id - b.id),
          );
        }
        if (fresh.length === rows.length) break; // every row was taken: the range had no more than that
      }
    }
    return claimed;
  });
}

/** Whether any queued message is due now (one row of the claim index per priority at most). */
export function hasDueSms(): boolean {
  const iso = nowIso();
  return PRIORITIES.some((priority) => dueRows(db, priority, iso, 1).get() !== undefined);
}

/** Puts claimed messages not yet handed over back in the queue (a worker stopping). */
export function releaseSms(ids: number[], worker = smsWorkerId()): number {
  if (!ids.length) return 0;
  return db
    .update(M)
    .set({ claimed_by: null, due_at: nowIso() })
    .where(and(inArray(M.id, ids), eq(M.claimed_by, worker), eq(M.status, "queued"), isNull(M.sending_at)))
    .run().changes;
}

/**
 * On start: the claims left by earlier runs of this worker slot (a crash, a
 * kill -9) are due at once. The next claim sends those never handed over and
 * fails as "delivery unknown" those that were with the provider. Returns how
 * many claims were found.
 */
export function recoverSmsClaims(slot = smsWorkerSlot(), worker = smsWorkerId(slot)): number {
  const prefix = `${slot}#`;
  return db
    .update(M)
    .set({ due_at: nowIso() })
    .where(
      and(
        isNotNull(M.claimed_by),
        likePrefix(M.claimed_by, prefix),
        sql`${M.claimed_by} <> ${worker}`,
        eq(M.status, "queued"),
      ),
    )
    .run().changes;
}

export type SendReport = { sent: number; failed: number; retried: number };

/**
 * Sends claimed messages one at a time, at the pace's `beforeEach` (false: stop, the rest go back to the
 * queue; it is told the message that would go next). The outcome of one message and the hand-over mark of the next are one commit when the next is
 * due at once (`dueNow`, true when not given): one write per message instead of two, and still never more
 * than one message of this worker with the provider. When the next must wait, the outcome is recorded
 * before the wait.
 */
export async function sendClaimed(
  rows: SmsMessage[],
  provider: SmsProvider,
  worker: string,
  pace: { beforeEach?: (next: SmsMessage) => Promise<boolean>; dueNow?: () => boolean } = {},
): Promise<SendReport> {
  const report: SendReport = { sent: 0, failed: 0, retried: 0 };
  const count = (outcome: Outcome | null) => {
    if (outcome?.kind === "sent") report.sent++;
    else if (outcome?.kind === "failed") report.failed++;
    else if (outcome?.kind === "retry") report.retried++;
  };
  let handed: Handed | null = null;
  const settle = async () => {
    const last: Handed | null = handed;
    handed = null;
    if (last) count(await together((tx) => recordIn(tx, last.row, provider.name, worker, last.result, true)));
  };
  for (let i = 0; i < rows.length; i++) {
    // A turn of the event loop between messages: a batch never holds it, whatever the provider.
    await new Promise((resolve) => setImmediate(resolve));
    if (pace.dueNow && !pace.dueNow()) await settle();
    if (pace.beforeEach && !(await pace.beforeEach(rows[i]))) {
      await settle();
      releaseSms(
        rows.slice(i).map((r) => r.id),
        worker,
      );
      break;
    }
    const next = rows[i];
    const mobile = normalizePhone(next.to) !== null;
    const last: Handed | null = handed;
    const step = await together((tx) => ({
      recorded: last ? recordIn(tx, last.row, provider.name, worker, last.result, true) : null,
      taken: mobile ? markSending(tx, next, provider, worker) : undefined,
      refused: mobile ? null : recordIn(tx, next, provider.name, worker, NOT_A_MOBILE, false),
    }));
    handed = null;
    count(step.recorded);
    count(step.refused);
    if (step.taken) handed = await handOver(step.taken, provider);
  }
  await settle();
  return report;
}

/**
 * A write of the sender's in the process's shared commits (transactTogether): it waits for the write lock
 * by timer, never asleep in SQLite's busy handler with the event loop held, and shares its commit with the
 * visitors' writes of the same turn.
 */
const together = <T>(fn: (tx: Executor) => T) => transactTogether(fn) as Promise<T>; // nothing in it fails as a Failure

/**
 * Sends up to `limit` queued messages that are due, codes first, then by due
 * time. Claimed first, so two senders never send the same row.
 */
export async function sendQueued(limit: number, provider: SmsProvider = smsProvider()): Promise<SendReport> {
  const worker = smsWorkerId();
  const report: SendReport = { sent: 0, failed: 0, retried: 0 };
  let left = Math.max(0, Math.floor(limit));
  while (left > 0) {
    const rows = await claimSms(left, worker);
    if (!rows.length) {
      if (!hasDueSms()) break;
      await new Promise((resolve) => setImmediate(resolve)); // the claim failed stale rows only: look again
      continue;
    }
    const r = await sendClaimed(rows, provider, worker);
    report.sent += r.sent;
    report.failed += r.failed;
    report.retried += r.retried;
    left -= rows.length;
  }
  return report;
}
