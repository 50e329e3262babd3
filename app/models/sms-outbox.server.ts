/**
 * The SMS outbox as staff read it (spec 001: /admin/outbox): the messages in the
 * viewer's reach (head office every one; a branch its own customers'), codes
 * masked for staff who may not see them, and "Send again" for a failed notice.
 * The queue is app/models/sms.server.ts, the delivery app/models/sms-delivery.server.ts.
 */
import { and, count, desc, eq, gt, gte, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import { db, schema } from "@db/index";
import type { SmsMessage } from "@db/schema";
import { diff, audit, type Actor } from "~/models/audit.server";
import { fail, FailureError, type Result } from "~/utils/failure";
import { transact } from "~/models/transaction.server";
import { config } from "~/utils/config.server";
import { runTable, type TableParams, type TableResult, phoneSearch } from "~/utils/datatable.server";
import { isHeadOffice, type Scope } from "~/models/scope.server";
import { can, canSeeCodes, EVERY_PERMISSION, type PermissionHolder } from "~/utils/permissions";
import { normalizePhone } from "~/utils/phone";
import { kathmanduBounds, nowIso } from "~/utils/time";
import { isCodePurpose, wakeSmsWorker, type SmsPurpose, type SmsStatus } from "./sms.server";

const { smsMessages: M, smsBroadcasts } = schema;

// ---------------------------------------------------------------- reading

/** Stored messages, latest first (tests, tools). */
export function listOutbox({
  to,
  purpose,
  broadcastId,
  limit = 50,
  offset = 0,
}: { to?: string; purpose?: SmsPurpose; broadcastId?: number; limit?: number; offset?: number } = {}): SmsMessage[] {
  const where: SQL[] = [];
  if (to) where.push(eq(M.to, normalizePhone(to) ?? to.trim()));
  if (purpose) where.push(eq(M.purpose, purpose));
  if (broadcastId != null) where.push(eq(M.broadcast_id, broadcastId));
  return db
    .select()
    .from(M)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(M.id))
    .limit(limit)
    .offset(offset)
    .all();
}

/** The latest message to a phone (optionally of one purpose). */
export function lastMessageTo(phone: string, purpose?: SmsPurpose): SmsMessage | null {
  return listOutbox({ to: phone, purpose, limit: 1 })[0] ?? null;
}

// ---------------------------------------------------------------- the back-office outbox

export type OutboxFilters = {
  status?: SmsStatus | null;
  purpose?: SmsPurpose | null;
  /** Kathmandu days or wall-clock hours (app/schemas/sms.ts), as every list's From and To. */
  from?: string | null;
  to?: string | null;
};

/** Who reads the outbox: their permissions (codes, coupons, staff messages) and their branch scope. */
export type OutboxViewer = NonNullable<PermissionHolder> & { scope: Scope };

const { preregistrations: P, registrations: R } = schema;

/**
 * The messages a viewer may see, inside the query (decision 8, "The outbox follows the branch's reach"):
 * head office sees every message, but a staff password-reset message only as a full administrator;
 * a branch user sees the messages of its own branch's customers: the codes of its pre-registrations
 * (made at its counter, or naming it as nearest showroom), the purchase codes and prize notices of its
 * registrations, and the broadcasts sent within its scope; never a staff message.
 */
export function outboxReach(viewer: OutboxViewer): SQL | undefined {
  if (isHeadOffice(viewer.scope)) {
    return can(viewer, EVERY_PERMISSION) ? undefined : sql`${M.purpose} <> 'password-reset'`;
  }
  const branch = viewer.scope.branchId!;
  return or(
    and(
      eq(M.purpose, "otp"),
      inArray(
        M.subject_id,
        db
          .select({ id: P.id })
          .from(P)
          .where(sql`coalesce(${P.branch_id}, ${P.nearest_branch_id}) = ${branch}`),
      ),
    ),
    and(
      inArray(M.purpose, ["purchase-code", "notify"]),
      inArray(M.subject_id, db.select({ id: R.id }).from(R).where(eq(R.branch_id, branch))),
    ),
    inArray(
      M.broadcast_id,
      db.select({ id: smsBroadcasts.id }).from(smsBroadcasts).where(eq(smsBroadcasts.scope_branch_id, branch)),
    ),
  );
}

/** A message as the back office shows it. */
export type OutboxMessage = Omit<SmsMessage, "claimed_by" | "sending_at"> & { retryable: boolean };

const maskDigits = (text: string) => text.replace(/\b\d{4,8}\b/g, (d) => "•".repeat(d.length));

/**
 * The back-office view of a message: a code's text is masked unless the viewer
 * may see codes (canSeeCodes); a password-reset code is masked for everyone.
 * Retryable: failed and without a code.
 */
export function presentOutboxMessage(m: SmsMessage, viewer: PermissionHolder): OutboxMessage {
  const { claimed_by: _by, sending_at: _at, ...rest } = m;
  const hide = m.purpose === "password-reset" || (isCodePurpose(m.purpose) && !canSeeCodes(viewer));
  let text = hide ? maskDigits(m.text) : m.text;
  // A prize notice names the coupon: shown to a viewer who may read registrations.
  if (m.purpose === "notify" && !can(viewer, "read-registration")) text = maskCoupons(text);
  return { ...rest, text, retryable: isRetryable(m) };
}

const maskCoupons = (text: string) => text.replace(/\bTH-[A-Za-z0-9-]+/g, (c) => `TH-${"•".repeat(c.length - 3)}`);

const isRetryable = (m: Pick<SmsMessage, "status" | "purpose">) => m.status === "failed" && !isCodePurpose(m.purpose);

/**
 * One page of the outbox, latest first: filters by status and purpose, search
 * by phone only (a full number, or its first digits; searching texts would
 * find codes).
 */
export function outboxPage(
  viewer: OutboxViewer,
  params: TableParams,
  filters: OutboxFilters = {},
): TableResult<OutboxMessage> {
  const bounds = kathmanduBounds(filters.from, filters.to);
  const table = runTable<SmsMessage>(params, {
    orderable: { id: M.id, created_at: M.created_at },
    defaultOrder: { column: "id", dir: "desc" },
    base: [outboxReach(viewer)],
    filters: [
      filters.status ? eq(M.status, filters.status) : undefined,
      filters.purpose ? eq(M.purpose, filters.purpose) : undefined,
      bounds.from ? gte(M.created_at, bounds.from) : undefined,
      bounds.to ? lt(M.created_at, bounds.to) : undefined,
    ],
    search: (term) => phoneSearch(M.to, term),
    count: (where) => db.select({ n: count() }).from(M).where(where).get()?.n ?? 0,
    rows: (where, orderBy, limit, offset) =>
      db
        .select()
        .from(M)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset)
        .all(),
  });
  return { ...table, data: table.data.map((m) => presentOutboxMessage(m, viewer)) };
}

export const OUTBOX_ERRORS = {
  notFound: "Message not found.",
  notRetryable: "Only a failed message without a code can be sent again.",
  invalidNumber: "This number is not a valid mobile number, so the message cannot be sent again.",
} as const;

/** A failed message put back in the queue: the same row, fresh attempts, the current provider, due now. */
export function sentAgain(at: string) {
  return {
    status: "queued",
    attempts: 0,
    error: null,
    provider_reply: null,
    provider: config.smsProvider(),
    claimed_by: null,
    sending_at: null,
    due_at: at,
    valid_until: null,
  } as const;
}

/**
 * Staff send a failed message (not a code: codes have their own resend) again:
 * the same row goes back to the queue with fresh attempts, its broadcast's
 * failed count is taken back, and the audit row is written in the same
 * transaction. The worker is woken to send it.
 */
export function retryOutboxMessage(actor: Actor & OutboxViewer, id: number): Result<{ message: SmsMessage }> {
  const result = transact((tx) => {
    const before = tx
      .select()
      .from(M)
      .where(and(eq(M.id, id), outboxReach(actor)))
      .get();
    if (!before) throw new FailureError(fail.notFound(OUTBOX_ERRORS.notFound));
    if (!isRetryable(before)) throw new FailureError(fail.conflict(OUTBOX_ERRORS.notRetryable));
    if (!normalizePhone(before.to)) throw new FailureError(fail.conflict(OUTBOX_ERRORS.invalidNumber));
    const at = nowIso();
    const after = tx
      .update(M)
      .set(sentAgain(at))
      .where(and(eq(M.id, id), eq(M.status, "failed")))
      .returning()
      .get()!;
    if (before.broadcast_id != null) {
      tx.update(smsBroadcasts)
        .set({ failed: sql`max(${smsBroadcasts.failed} - 1, 0)`, status: "sending" })
        .where(and(eq(smsBroadcasts.id, before.broadcast_id), gt(smsBroadcasts.failed, 0)))
        .run();
    }
    const fields = ["status", "attempts", "error", "provider", "provider_reply"] as const;
    const pick = (r: SmsMessage) => Object.fromEntries(fields.map((f) => [f, r[f]]));
    audit(tx, actor, {
      action: "sms.retry",
      entityType: "sms_message",
      entityId: id,
      changes: diff(pick(before), pick(after)),
    });
    return { ok: true as const, message: after };
  });
  if (result.ok) wakeSmsWorker();
  return result;
}
