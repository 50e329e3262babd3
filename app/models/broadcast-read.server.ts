/**
 * Reading SMS broadcasts (spec 001 §2.10): a broadcast's view with its
 * progress, the history list, its recipients, and the customer picker of the
 * broadcast form. A branch user reads only their branch's broadcasts
 * (`scope_branch_id`) and picks only their branch's customers. The writes
 * (accepting, preparing, sending the failed ones again) are in
 * broadcast.server.ts; who a broadcast reaches is in broadcast-audience.server.ts.
 */
import { and, count, desc, eq, getTableColumns, inArray, isNull, sql } from "drizzle-orm";
import { db, schema } from "@db/index";
import type { SmsBroadcast, SmsMessage } from "@db/schema";
import { fail, type Result } from "~/utils/failure";
import { type BroadcastType } from "~/schemas/broadcast";
import { runTable, type TableParams, type TableResult, phoneSearch } from "~/utils/datatable.server";
import { maskPhone } from "~/utils/phone";
import { registrationSearch } from "./registration-list.server";
import { branchCondition, type Scope, isHeadOffice } from "./scope.server";

const { smsBroadcasts: B, smsBroadcastMobiles: BM, smsMessages: M, registrations: R, branches, users } = schema;

export const BROADCAST_NOT_FOUND = "Broadcast not found.";

// ---------------------------------------------------------------- reading

export type BroadcastStatus = "preparing" | "sending" | "done";

export type BroadcastView = {
  id: number;
  type: BroadcastType;
  text: string;
  branches: { id: number; title: string }[];
  registrants: number;
  mobiles: number;
  /** Distinct valid numbers it reaches (0 while `counting`). */
  total: number;
  /** Its recipients are still being counted, as its messages are stored (not a typed list). */
  counting: boolean;
  /** Messages stored so far (equal to total once prepared). */
  stored: number;
  /** Messages waiting to be sent (stored, neither sent nor failed yet). */
  queued: number;
  sent: number;
  failed: number;
  skipped: number;
  duplicates: number;
  parts: number;
  encoding: string;
  total_parts: number;
  status: BroadcastStatus;
  created_at: string;
  prepared_at: string | null;
  created_by: { name: string; email: string } | null;
  /** Spec 001 §3 sms.send_to: who it goes to, in words (decision 9). */
  send_to: string;
};

/**
 * A broadcast's recipients in words: "All customers" (of the sender's branch when scoped), the chosen
 * branches by name, "3 chosen customers", "12 typed numbers".
 */
export function sendToText(
  v: Pick<BroadcastView, "type" | "branches" | "registrants" | "mobiles">,
  scopeBranch: string | null,
): string {
  const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
  switch (v.type) {
    case "ALL":
      return scopeBranch ? `All customers of ${scopeBranch}` : "All customers";
    case "BRANCH":
      return `Customers of ${v.branches.map((b) => b.title).join(", ")}`;
    case "REGISTRANTS":
      return plural(v.registrants, "chosen customer", "chosen customers");
    case "MOBILE":
      return plural(v.mobiles, "typed number", "typed numbers");
  }
}

// A typed list can hold 100,000 numbers (1.2 MB of JSON): the views read its count, never the list.
const viewSelection = {
  row: getTableColumns(B),
  mobiles_count: sql<number>`coalesce(${BM.count}, 0)`,
  user_name: users.name,
  user_email: users.email,
};

/** Broadcasts with what their views show beside them. */
const viewed = () =>
  db.select(viewSelection).from(B).leftJoin(BM, eq(BM.broadcast_id, B.id)).leftJoin(users, eq(users.id, B.created_by));

function viewOf(
  {
    row,
    mobiles_count,
    user_name,
    user_email,
  }: { row: SmsBroadcast; mobiles_count: number; user_name: string | null; user_email: string | null },
  titles: Map<number, string>,
): BroadcastView {
  const ids = JSON.parse(row.branches) as number[];
  const status: BroadcastStatus = !row.prepared_at ? "preparing" : row.status === "done" ? "done" : "sending";
  const audience = {
    type: row.type,
    branches: ids.map((id) => ({ id, title: titles.get(id) ?? `#${id}` })),
    registrants: (JSON.parse(row.registrants) as number[]).length,
    mobiles: mobiles_count,
  };
  return {
    id: row.id,
    text: row.text,
    ...audience,
    send_to: sendToText(audience, row.scope_branch_id !== null ? (titles.get(row.scope_branch_id) ?? null) : null),
    total: row.total,
    counting: !row.prepared_at && row.type !== "MOBILE",
    stored: row.stored,
    queued: Math.max(0, row.stored - row.sent - row.failed),
    sent: row.sent,
    failed: row.failed,
    skipped: row.skipped,
    duplicates: row.duplicates,
    parts: row.parts,
    encoding: row.encoding,
    total_parts: row.total * row.parts,
    status,
    created_at: row.created_at,
    prepared_at: row.prepared_at,
    created_by: user_name ? { name: user_name, email: user_email ?? "" } : null,
  };
}

function branchTitles(): Map<number, string> {
  return new Map(
    db
      .select({ id: branches.id, title: branches.title })
      .from(branches)
      .all()
      .map((b) => [b.id, b.title]),
  );
}

/** Head office sees every broadcast; a branch user those sent within their branch. */
export const broadcastScope = (scope: Scope) =>
  isHeadOffice(scope) ? undefined : eq(B.scope_branch_id, scope.branchId);

/** One broadcast with its counts, within the scope; null otherwise. */
export function getBroadcast(scope: Scope, id: number): BroadcastView | null {
  const row = viewed()
    .where(and(eq(B.id, id), broadcastScope(scope)))
    .get();
  return row ? viewOf(row, branchTitles()) : null;
}

/** The broadcast history, newest first: who sent what, when, to how many, with its counts. Search: the text. */
export function listBroadcasts(scope: Scope, params: TableParams): TableResult<BroadcastView> {
  const titles = branchTitles();
  return runTable(params, {
    orderable: { id: B.id, created_at: B.created_at },
    defaultOrder: { column: "id", dir: "desc" },
    base: [broadcastScope(scope)],
    search: [B.text],
    count: (where) => db.select({ n: count() }).from(B).where(where).get()?.n ?? 0,
    rows: (where, orderBy, limit, offset) =>
      viewed()
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset)
        .all()
        .map((r) => viewOf(r, titles)),
  });
}

export type Recipient = Pick<SmsMessage, "id" | "to" | "status" | "attempts" | "error" | "sent_at" | "created_at">;

/** A broadcast's recipients with their status (filter by status; search by phone: a full number or its first digits). */
export function listRecipients(
  scope: Scope,
  id: number,
  params: TableParams,
  filters: { status?: SmsMessage["status"] } = {},
): Result<{ table: TableResult<Recipient> }> {
  if (!getBroadcast(scope, id)) return fail.notFound(BROADCAST_NOT_FOUND);
  const table = runTable<Recipient>(params, {
    orderable: { id: M.id, to: M.to },
    defaultOrder: { column: "id", dir: "asc" },
    base: [eq(M.broadcast_id, id)],
    filters: [filters.status ? eq(M.status, filters.status) : undefined],
    search: (term) => phoneSearch(M.to, term),
    count: (where) => db.select({ n: count() }).from(M).where(where).get()?.n ?? 0,
    rows: (where, orderBy, limit, offset) =>
      db
        .select({
          id: M.id,
          to: M.to,
          status: M.status,
          attempts: M.attempts,
          error: M.error,
          sent_at: M.sent_at,
          created_at: M.created_at,
        })
        .from(M)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset)
        .all(),
  });
  return { ok: true, table };
}

// ---------------------------------------------------------------- the customer picker

export type RegistrantChoice = { value: number; label: string };

/**
 * Registered customers for the broadcast's customer select, by name or phone,
 * within the sender's scope (head office: every branch); the label shows the
 * phone masked (the number itself is what gets the SMS).
 */
export function searchBroadcastRegistrants(scope: Scope, q: string, limit = 10): RegistrantChoice[] {
  // A full phone: the phone index; a name (or part of a phone) of 3 or more characters: the full-text index.
  const match = registrationSearch(q.trim());
  if (!match) return [];
  return db
    .select({ id: R.id, name: R.name, phone: R.phone })
    .from(R)
    .where(and(isNull(R.deleted_at), branchCondition(R.branch_id, scope), match))
    .orderBy(desc(R.id))
    .limit(limit)
    .all()
    .map((r) => ({ value: r.id, label: `${r.name} (${maskPhone(r.phone)})` }));
}

/** The chosen customers' labels (for the form shown again), within the scope. */
export function registrantChoices(scope: Scope, ids: number[]): RegistrantChoice[] {
  if (!ids.length) return [];
  return db
    .select({ id: R.id, name: R.name, phone: R.phone })
    .from(R)
    .where(and(inArray(R.id, ids), isNull(R.deleted_at), branchCondition(R.branch_id, scope)))
    .all()
    .map((r) => ({ value: r.id, label: `${r.name} (${maskPhone(r.phone)})` }));
}
