/**
 * The one SMS sender. Every message (codes, notify, broadcast) is stored in
 * sms_messages, handed to the provider chosen by configuration (SMS_PROVIDER:
 * "outbox" by default, or "http" for the Nepali SMS gateway) and kept with its
 * status (queued, sent, failed), provider reply and error.
 *
 * Broadcast messages are stored queued and sent by a background worker at a
 * bounded rate (sendQueued / startSmsWorker); each sent or failed broadcast
 * message moves its sms_broadcasts counters (sent, failed; status "sending",
 * then "done" once sent + failed reaches total).
 */
import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import type { SmsMessage } from "@db/schema";
import { config } from "~/utils/config.server";
import { normalizePhone } from "~/utils/phone";
import { nowIso } from "~/utils/time";

const { smsMessages, smsBroadcasts } = schema;

export type SmsPurpose = "otp" | "purchase-code" | "notify" | "password-reset" | "broadcast";

export type SmsSendResult = { ok: boolean; reply: string; error?: string };

/** A way out for a message: outbox (stays here) or the HTTP gateway. */
export interface SmsProvider {
  name: string;
  send(to: string, text: string): Promise<SmsSendResult>;
}

// ---------------------------------------------------------------- providers

/** Nothing leaves the machine; the stored row is the message. */
export const outboxProvider: SmsProvider = {
  name: "outbox",
  async send() {
    return { ok: true, reply: "stored in outbox" };
  },
};

export const GATEWAY_TIMEOUT_MS = 10_000;

/** Error codes of the gateway (Sparrow SMS v2 style) and what they mean for us. */
const GATEWAY_ERRORS: Record<number, string> = {
  1000: "a required field is missing",
  1001: "this server's IP address is not allowed",
  1002: "invalid token",
  1003: "the account is inactive",
  1004: "the account is inactive",
  1005: "the account has expired",
  1006: "the account has expired",
  1007: "invalid receiver (mobile number)",
  1008: "invalid sender (from)",
  1010: "the message text is empty",
  1011: "no valid receiver (mobile number)",
  1012: "no credit left",
  1013: "not enough credit",
};

export type GatewayOptions = { url?: string; token?: string; from?: string; timeoutMs?: number };

/**
 * HTTP gateway: POST token, from, to, text (form-encoded) to SMS_GATEWAY_URL.
 * Success is HTTP 200 with JSON response_code 200. Settings not given here are
 * read from configuration at send time.
 */
export function httpGatewayProvider(options: GatewayOptions = {}): SmsProvider {
  return {
    name: "http",
    async send(to, text) {
      const url = options.url ?? config.smsGatewayUrl();
      const token = options.token ?? config.smsGatewayToken();
      const from = options.from ?? config.smsGatewayFrom();
      const timeoutMs = options.timeoutMs ?? GATEWAY_TIMEOUT_MS;
      if (!url || !token) return { ok: false, reply: "", error: "SMS gateway is not configured" };
      try {
        const res = await fetch(url, {
          method: "POST",
          headers: { accept: "application/json" },
          body: new URLSearchParams({ token, from, to, text }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        return readGatewayReply(res.status, await res.text());
      } catch (error) {
        return { ok: false, reply: "", error: networkError(error, timeoutMs) };
      }
    },
  };
}

function readGatewayReply(status: number, reply: string): SmsSendResult {
  type GatewayBody = { response_code?: unknown; response?: unknown };
  let body: GatewayBody | null = null;
  try {
    const parsed: unknown = JSON.parse(reply);
    if (parsed && typeof parsed === "object") body = parsed as GatewayBody;
  } catch {
    body = null;
  }
  const code = Number(body?.response_code);
  if (status === 200 && code === 200) return { ok: true, reply };
  if (body && Number.isFinite(code) && code !== 200) {
    const known = GATEWAY_ERRORS[code];
    const message = typeof body.response === "string" ? body.response : "";
    return {
      ok: false,
      reply,
      error: known ? `SMS gateway: ${known} (code ${code})` : `SMS gateway error ${code}: ${message || "no message"}`,
    };
  }
  if (status !== 200) return { ok: false, reply, error: `SMS gateway answered HTTP ${status}` };
  return { ok: false, reply, error: "SMS gateway sent a reply it could not be understood" };
}

function networkError(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === "TimeoutError" || e?.name === "AbortError") {
    return `SMS gateway did not answer within ${Math.round(timeoutMs / 100) / 10} s`;
  }
  const detail = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(error);
  return `SMS gateway could not be reached (${detail})`;
}

/** A provider that refuses every message, for a misspelt SMS_PROVIDER. */
function unknownProvider(name: string): SmsProvider {
  return {
    name,
    async send() {
      return { ok: false, reply: "", error: `Unknown SMS provider "${name}" (use outbox or http)` };
    },
  };
}

/** The provider chosen by configuration (SMS_PROVIDER). */
export function smsProvider(): SmsProvider {
  const name = config.smsProvider();
  if (name === "outbox") return outboxProvider;
  if (name === "http") return httpGatewayProvider();
  return unknownProvider(name);
}

// ---------------------------------------------------------------- sending

export type SendSmsInput = { to: string; text: string; purpose: SmsPurpose; broadcastId?: number | null };

/**
 * Stores the message and sends it now; resolves with the stored row once it is
 * sent or failed. An invalid mobile number fails without reaching the provider.
 */
export async function sendSms(input: SendSmsInput, provider: SmsProvider = smsProvider()): Promise<SmsMessage> {
  const phone = normalizePhone(input.to);
  // attempts starts at 1: the row is claimed by this call, so the worker leaves it alone.
  const row = db
    .insert(smsMessages)
    .values({
      to: phone ?? input.to.trim(),
      text: input.text,
      purpose: input.purpose,
      status: "queued",
      provider: provider.name,
      attempts: 1,
      broadcast_id: input.broadcastId ?? null,
      created_at: nowIso(),
    })
    .returning()
    .get();
  return deliver(row, provider);
}

/**
 * Stores one message as queued through `exec`, so it commits (or rolls back)
 * with the caller's own transaction; the background worker sends it. Call
 * `wakeSmsWorker()` after the commit so it leaves at once. This keeps the
 * sending off the visitor's request and the whole write to one commit.
 */
export function queueMessage(exec: Executor, input: SendSmsInput): SmsMessage {
  return exec
    .insert(smsMessages)
    .values({
      to: normalizePhone(input.to) ?? input.to.trim(),
      text: input.text,
      purpose: input.purpose,
      status: "queued",
      provider: config.smsProvider(),
      broadcast_id: input.broadcastId ?? null,
      created_at: nowIso(),
    })
    .returning()
    .get();
}

const wakers = new Set<() => void>();

/** Asks this process's SMS worker to look at the queue now rather than at its next tick. */
export function wakeSmsWorker(): void {
  for (const wake of wakers) wake();
}

/** Stores messages as queued for the background worker; returns how many. */
export function queueSms(messages: SendSmsInput[]): number {
  if (!messages.length) return 0;
  const provider = config.smsProvider();
  const created_at = nowIso();
  db.transaction(
    (tx) => {
      for (const m of messages) {
        tx.insert(smsMessages)
          .values({
            to: normalizePhone(m.to) ?? m.to.trim(),
            text: m.text,
            purpose: m.purpose,
            status: "queued",
            provider,
            broadcast_id: m.broadcastId ?? null,
            created_at,
          })
          .run();
      }
    },
    { behavior: "immediate" },
  );
  return messages.length;
}

async function deliver(row: SmsMessage, provider: SmsProvider): Promise<SmsMessage> {
  let result: SmsSendResult;
  if (!normalizePhone(row.to)) {
    result = { ok: false, reply: "", error: "Invalid mobile number" };
  } else {
    try {
      result = await provider.send(row.to, row.text);
    } catch (error) {
      result = { ok: false, reply: "", error: `SMS provider failed: ${(error as Error)?.message ?? String(error)}` };
    }
  }
  return finish(row, provider.name, result);
}

/** Records the outcome and, for a broadcast message, moves the broadcast's progress. */
function finish(row: SmsMessage, providerName: string, result: SmsSendResult): SmsMessage {
  return db.transaction(
    (tx) => {
      const updated = tx
        .update(smsMessages)
        .set({
          status: result.ok ? "sent" : "failed",
          provider: providerName,
          provider_reply: result.reply || null,
          error: result.ok ? null : (result.error ?? "SMS could not be sent"),
          sent_at: result.ok ? nowIso() : null,
        })
        .where(eq(smsMessages.id, row.id))
        .returning()
        .get();
      if (row.broadcast_id != null) {
        // SET expressions read the old column values.
        tx.update(smsBroadcasts)
          .set({
            sent: sql`${smsBroadcasts.sent} + ${result.ok ? 1 : 0}`,
            failed: sql`${smsBroadcasts.failed} + ${result.ok ? 0 : 1}`,
            status: sql`case when ${smsBroadcasts.total} > 0 and ${smsBroadcasts.sent} + ${smsBroadcasts.failed} + 1 >= ${smsBroadcasts.total} then 'done' else 'sending' end`,
          })
          .where(eq(smsBroadcasts.id, row.broadcast_id))
          .run();
      }
      return updated ?? row;
    },
    { behavior: "immediate" },
  );
}

/**
 * Sends up to `limit` queued messages, oldest first. Rows are claimed (attempts
 * 0 -> 1) in one transaction first, so two workers never send the same row.
 */
export async function sendQueued(
  limit: number,
  provider: SmsProvider = smsProvider(),
): Promise<{ sent: number; failed: number }> {
  const take = Math.max(0, Math.floor(limit));
  if (!take) return { sent: 0, failed: 0 };
  const claimed = db.transaction(
    (tx) => {
      const rows = tx
        .select()
        .from(smsMessages)
        .where(and(eq(smsMessages.status, "queued"), eq(smsMessages.attempts, 0)))
        .orderBy(asc(smsMessages.id))
        .limit(take)
        .all();
      if (rows.length) {
        tx.update(smsMessages)
          .set({ attempts: sql`${smsMessages.attempts} + 1` })
          .where(
            inArray(
              smsMessages.id,
              rows.map((r) => r.id),
            ),
          )
          .run();
      }
      return rows;
    },
    { behavior: "immediate" },
  );
  let sent = 0;
  let failed = 0;
  for (const row of claimed) {
    const done = await deliver({ ...row, attempts: row.attempts + 1 }, provider);
    if (done.status === "sent") sent++;
    else failed++;
  }
  return { sent, failed };
}

/**
 * Background sender: every `intervalMs` sends up to ratePerSecond * interval
 * queued messages; a tick never overlaps the previous one. Returns stop().
 */
export function startSmsWorker({ ratePerSecond, intervalMs = 1000 }: { ratePerSecond: number; intervalMs?: number }) {
  const perTick = Math.max(1, Math.floor((ratePerSecond * intervalMs) / 1000));
  let busy = false;
  let again = false;
  const tick = () => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    sendQueued(perTick)
      .catch((error) => console.error("SMS worker:", error))
      .finally(() => {
        busy = false;
        if (again) {
          again = false;
          setImmediate(tick);
        }
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  const wake = () => setImmediate(tick);
  wakers.add(wake);
  return () => {
    clearInterval(timer);
    wakers.delete(wake);
  };
}

// ---------------------------------------------------------------- reading

/** Stored messages, latest first (back office outbox, tests). */
export function listOutbox({
  to,
  purpose,
  broadcastId,
  limit = 50,
  offset = 0,
}: { to?: string; purpose?: SmsPurpose; broadcastId?: number; limit?: number; offset?: number } = {}): SmsMessage[] {
  const where: SQL[] = [];
  if (to) where.push(eq(smsMessages.to, normalizePhone(to) ?? to.trim()));
  if (purpose) where.push(eq(smsMessages.purpose, purpose));
  if (broadcastId != null) where.push(eq(smsMessages.broadcast_id, broadcastId));
  return db
    .select()
    .from(smsMessages)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(smsMessages.id))
    .limit(limit)
    .offset(offset)
    .all();
}

/** The latest message to a phone (optionally of one purpose). */
export function lastMessageTo(phone: string, purpose?: SmsPurpose): SmsMessage | null {
  return listOutbox({ to: phone, purpose, limit: 1 })[0] ?? null;
}
