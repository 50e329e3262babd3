/**
 * The one SMS sender's queue. Every message (codes, notify, broadcast) is
 * stored in sms_messages as queued, with its purpose, priority (codes before
 * single notices, and those before broadcasts) and, for a code, the instant
 * after which it is not sent; the background worker sends it
 * (sms-delivery.server.ts: claims, hand-over, retries and outcomes, decision 8).
 * `codeDelivery` tells a caller how a code's message fares, so a visitor whose
 * code could not be sent can ask for a new one.
 *
 * Beside it: the delivery (sms-delivery.server.ts), the providers
 * (sms-provider.server.ts), the background worker (sms-worker.server.ts) and
 * the staff's outbox (sms-outbox.server.ts).
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import { insertReturning } from "@db/prepared";
import type { SmsMessage } from "@db/schema";
import { config } from "~/utils/config.server";
import { SMS_PURPOSES, SMS_STATUSES } from "~/schemas/sms";
import { normalizePhone } from "~/utils/phone";
import { now, nowIso } from "~/utils/time";

const { smsMessages: M } = schema;

export { SMS_PURPOSES, SMS_STATUSES };
export type SmsPurpose = (typeof SMS_PURPOSES)[number];
export type SmsStatus = (typeof M.status.enumValues)[number];
// The form's list of statuses is the column's, exactly.
const _statuses: readonly SmsStatus[] = SMS_STATUSES satisfies readonly SmsStatus[];
const _column: readonly (typeof SMS_STATUSES)[number][] = M.status.enumValues;
void _statuses;
void _column;

/** Messages that carry a one-time code: sent first, masked for staff who may not see codes, never re-sent by hand. */
export const CODE_PURPOSES: readonly SmsPurpose[] = ["otp", "purchase-code", "password-reset"];
export const isCodePurpose = (purpose: string) => (CODE_PURPOSES as readonly string[]).includes(purpose);

/** Sending order: lower first. */
export const SMS_PRIORITY = { code: 0, notice: 1, broadcast: 2 } as const;

export function priorityOf(purpose: string): number {
  if (isCodePurpose(purpose)) return SMS_PRIORITY.code;
  return purpose === "broadcast" ? SMS_PRIORITY.broadcast : SMS_PRIORITY.notice;
}

/** How long a one-time code's SMS may wait to be sent when the caller gives no `validUntil` (the code's life). */
export const CODE_SMS_VALID_MS = 10 * 60_000;

export const later = (ms: number, from: Date = now()) => new Date(from.getTime() + ms).toISOString();

// ---------------------------------------------------------------- queueing

export type SendSmsInput = {
  to: string;
  text: string;
  purpose: SmsPurpose;
  broadcastId?: number | null;
  /** A code's subject (pre-registration id for otp, registration id for purchase-code, user id for password-reset). */
  subjectId?: number | null;
  /** Not sent after this instant (ISO). Codes default to CODE_SMS_VALID_MS after queueing. */
  validUntil?: string | null;
};

export type NewRow = typeof M.$inferInsert;

export function newRow(input: SendSmsInput, providerName: string, at: Date): NewRow {
  const created = at.toISOString();
  return {
    to: normalizePhone(input.to) ?? input.to.trim(),
    text: input.text,
    purpose: input.purpose,
    status: "queued",
    provider: providerName,
    broadcast_id: input.broadcastId ?? null,
    subject_id: input.subjectId ?? null,
    priority: priorityOf(input.purpose),
    valid_until: input.validUntil ?? (isCodePurpose(input.purpose) ? later(CODE_SMS_VALID_MS, at) : null),
    due_at: created,
    created_at: created,
  };
}

/**
 * Stores one message as queued through `exec`, so it commits (or rolls back)
 * with the caller's own transaction; the background worker sends it. Call
 * `wakeSmsWorker()` after the commit so it leaves at once. This keeps the
 * sending off the visitor's request and the whole write to one commit.
 */
export function queueMessage(exec: Executor, input: SendSmsInput): SmsMessage {
  return insertMessage(exec, newRow(input, config.smsProvider(), now()));
}

const insertMessage = insertReturning(M);

const wakers = new Set<() => void>();

/** Asks this process's SMS worker to look at the queue now rather than at its next tick. */
export function wakeSmsWorker(): void {
  for (const wake of wakers) wake();
}

/** Calls `wake` whenever a message is queued in this process (the worker's nudge); returns the unsubscribe. */
export function onSmsQueued(wake: () => void): () => void {
  wakers.add(wake);
  return () => wakers.delete(wake);
}

/** Stores messages as queued for the background worker, in one transaction; returns how many. */
export function queueSms(messages: SendSmsInput[]): number {
  if (!messages.length) return 0;
  const provider = config.smsProvider();
  const at = now();
  const rows = messages.map((m) => newRow(m, provider, at));
  db.transaction(
    (tx) => {
      for (let i = 0; i < rows.length; i += 100)
        tx.insert(M)
          .values(rows.slice(i, i + 100))
          .run();
    },
    { behavior: "immediate" },
  );
  return messages.length;
}

/**
 * Stores many messages (a broadcast) as queued, `chunk` rows per transaction
 * with the event loop free between chunks, so requests keep being served while
 * 100k rows go in. Returns how many were stored.
 */
export async function queueSmsInChunks(messages: SendSmsInput[], chunk = 250): Promise<number> {
  let stored = 0;
  for (let i = 0; i < messages.length; i += chunk) {
    stored += queueSms(messages.slice(i, i + chunk));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return stored;
}

/**
 * Stores one chunk of a broadcast's messages through `exec` (the preparation's
 * transaction): one row per phone, queued at broadcast priority; a phone that
 * already has its message in this broadcast is left alone (unique index on
 * broadcast and number). Returns how many rows were stored.
 *
 * One statement for the chunk, its numbers passed as one JSON list and each row made by SQLite:
 * drizzle built a multi-row insert's SQL (a placeholder per column per row) in more time than
 * SQLite took to run it. The rows are those `newRow` makes for a broadcast, in the list's order.
 */
export function queueBroadcastChunk(exec: Executor, broadcastId: number, text: string, phones: string[]): number {
  if (!phones.length) return 0;
  const at = nowIso();
  const to = JSON.stringify(phones.map((p) => normalizePhone(p) ?? p.trim()));
  return exec.run(
    sql`insert into ${M} ("to", "text", "purpose", "status", "provider", "broadcast_id", "subject_id", "priority", "valid_until", "due_at", "created_at")
        select value, ${text}, 'broadcast', 'queued', ${config.smsProvider()}, ${broadcastId}, null, ${priorityOf("broadcast")}, null, ${at}, ${at}
        from json_each(${to}) where true
        on conflict do nothing`,
  ).changes;
}

// ---------------------------------------------------------------- codes

export type CodeDelivery = {
  messageId: number;
  /** queued: not sent yet (maybe being retried); sent: the gateway took it; failed: it will not be sent. */
  status: SmsStatus;
  attempts: number;
  /** The latest reason it did not go (for failed, the final one). */
  error: string | null;
  queuedAt: string;
  sentAt: string | null;
};

/**
 * How the SMS of a subject's latest one-time code fares: `failed` means it
 * will not arrive and the visitor should be told "the code could not be sent,
 * please resend"; `queued` with an error means the gateway is failing and it
 * is being retried. Null when no such message was queued. `subjectId` is what
 * the sender passed: pre-registration id (otp), registration id
 * (purchase-code), user id (password-reset).
 */
export function codeDelivery(purpose: SmsPurpose, subjectId: number): CodeDelivery | null {
  const row = db
    .select()
    .from(M)
    .where(and(eq(M.purpose, purpose), eq(M.subject_id, subjectId)))
    .orderBy(desc(M.id))
    .limit(1)
    .get();
  if (!row) return null;
  return {
    messageId: row.id,
    status: row.status,
    attempts: row.attempts,
    error: row.error,
    queuedAt: row.created_at,
    sentAt: row.sent_at,
  };
}
