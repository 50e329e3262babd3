/**
 * SMS broadcasts (spec 001 §2.10; docs/decisions/0016-broadcasts-and-referrers.md):
 * who a broadcast reaches, its preview, sending it, its history and its
 * recipients, and sending its failed messages again.
 *
 * Who it reaches (DECISIONS.md, SMS):
 * - ALL: every distinct phone of a live registration or a verified
 *   pre-registration (not deleted);
 * - BRANCH: the same, limited to the chosen branches: a registration's
 *   branch; a pre-registration's branch, or its nearest showroom when it came
 *   from the public site (no branch);
 * - REGISTRANTS: the chosen customers' (registrations') phones;
 * - MOBILE: the typed list.
 * A branch user's broadcast never leaves their branch (ALL is their branch;
 * BRANCH only their own; customers of their branch). Stored numbers that are
 * not valid mobiles are skipped and counted; a number reached twice gets one
 * message. Registrations made and pre-registrations verified after the
 * broadcast was accepted are not added to it.
 *
 * How it is sent: accepting a broadcast writes the broadcast row and its
 * audit row in one transaction and answers at once. The messages are then
 * stored by the preparation, in chunks of up to 250 per transaction sized to
 * hold the event loop a few milliseconds, with the event loop free between
 * chunks, in phone order with the last phone stored kept on the broadcast
 * (`cursor`), so a restart carries on where it stopped (`resumeBroadcasts`);
 * a unique index keeps one message per number. Recipients and skipped
 * numbers are counted as they are stored (a typed list is counted at once);
 * the last chunk records the total and a second audit row. The SMS worker
 * sends them at SMS_RATE_PER_SECOND, after codes and single notices, and
 * moves the broadcast's sent and failed counts (app/models/sms.server.ts).
 */
import { and, count, desc, eq, getTableColumns, gt, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { setImmediate as nextTurn } from "node:timers/promises";
import { db, schema, type Executor } from "@db/index";
import type { SmsBroadcast, SmsMessage } from "@db/schema";
import { audit, SYSTEM } from "~/models/audit.server";
import { fail, FailureError, type FieldErrors, type Result } from "~/models/failure";
import { gatewayCredit, type GatewayCredit } from "~/models/sms-provider.server";
import { queueBroadcastChunk, wakeSmsWorker } from "~/models/sms.server";
import { sentAgain } from "~/models/sms-outbox.server";
import { transact } from "~/models/transaction.server";
import { BROADCAST_MESSAGES as MSG, type BroadcastInput, type BroadcastType } from "~/schemas/broadcast";
import { config } from "~/utils/config.server";
import { likePrefix, runTable, type TableParams, type TableResult } from "~/utils/datatable.server";
import { maskPhone, normalizePhone } from "~/utils/phone";
import { smsParts, type SmsParts } from "~/utils/sms-parts";
import { nowIso } from "~/utils/time";
import { ftsQuery } from "./preregistration-admin.server";
import { CAMPAIGN } from "./preregistration.server";
import { branchCondition, type Scope, type ScopedActor, isHeadOffice } from "./scope.server";

const { smsBroadcasts: B, smsMessages: M, registrations: R, preregistrations: P, branches, users } = schema;

export const BROADCAST_NOT_FOUND = "Broadcast not found.";
export const NO_FAILED_MESSAGES = "There are no failed messages to send again.";

/** Messages stored per transaction by the preparation at most (decision 8: 250 rows). */
export const PREPARE_CHUNK = 250;
/** The fewest messages a chunk stores when chunks are slow (a large database, a busy disk). */
const MIN_CHUNK = 25;
/** How long one step of counting or storing may hold the event loop (as the .xls writer's slices). */
const SLICE_MS = 5;
/** Phones read per query when counting recipients. */
const COUNT_STEP = 250;
/** Failed messages put back in the queue per transaction by "send the failed ones again". */
const RETRY_CHUNK = 1000;

/** A valid Nepali mobile as stored (10 digits starting with 9), in SQL. */
const VALID_PHONE = "9[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]";
const isValid = (phone: string) => normalizePhone(phone) === phone;

// ---------------------------------------------------------------- who a broadcast reaches

/** Whom a broadcast reaches, as stored on its row. */
export type Audience = {
  type: BroadcastType;
  branches: number[];
  registrants: number[];
  /** Distinct normalized numbers, sorted. */
  mobiles: string[];
  /** The sender's branch (null: head office): ALL and customers stay inside it. */
  scopeBranchId: number | null;
  /** Registrations made and pre-registrations verified after this instant are not reached. */
  cutoff: string;
};

/**
 * One source of phones: the next `limit` distinct phones after `after`, in
 * phone order (valid or not). `query` is the SQL it runs (none for a typed list).
 */
type Arm = {
  next: (exec: Executor, after: string, limit: number) => string[];
  query?: (exec: Executor, after: string, limit: number) => { toSQL(): { sql: string; params: unknown[] } };
};

function registrationArm(cond: SQL | undefined, cutoff: string): Arm {
  const query = (exec: Executor, after: string, limit: number) =>
    exec
      .select({ phone: R.phone })
      .from(R)
      .where(and(gt(R.phone, after), isNull(R.deleted_at), sql`${R.created_at} <= ${cutoff}`, cond))
      .groupBy(R.phone)
      .orderBy(R.phone)
      .limit(limit);
  return {
    query,
    next: (exec, after, limit) =>
      query(exec, after, limit)
        .all()
        .map((r) => r.phone),
  };
}

function preregistrationArm(cond: SQL | undefined, cutoff: string): Arm {
  // (campaign, phone) is unique: one range of preregistrations_phone_unique, in phone order.
  const query = (exec: Executor, after: string, limit: number) =>
    exec
      .select({ phone: P.phone })
      .from(P)
      .where(
        and(
          eq(P.campaign, CAMPAIGN),
          gt(P.phone, after),
          eq(P.is_verified, true),
          isNull(P.deleted_at),
          sql`coalesce(${P.verified_at}, ${P.created_at}) <= ${cutoff}`,
          cond,
        ),
      )
      .orderBy(P.phone)
      .limit(limit);
  return {
    query,
    next: (exec, after, limit) =>
      query(exec, after, limit)
        .all()
        .map((r) => r.phone),
  };
}

function listArm(sorted: string[]): Arm {
  return {
    next: (_exec, after, limit) => {
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (sorted[mid] <= after) lo = mid + 1;
        else hi = mid;
      }
      return sorted.slice(lo, lo + limit);
    },
  };
}

/** The branches a BRANCH broadcast (or a branch user's ALL) reaches. */
function branchesOf(a: Audience): number[] | null {
  if (a.type === "BRANCH") return a.branches;
  if (a.type === "ALL" && a.scopeBranchId !== null) return [a.scopeBranchId];
  return null;
}

function armsOf(a: Audience): Arm[] {
  if (a.type === "MOBILE") return [listArm(a.mobiles)];
  if (a.type === "REGISTRANTS") {
    const cond = and(inArray(R.id, a.registrants.length ? a.registrants : [0]), scopeOf(a));
    return [registrationArm(cond, a.cutoff)];
  }
  const ids = branchesOf(a);
  if (!ids) return [registrationArm(undefined, a.cutoff), preregistrationArm(undefined, a.cutoff)];
  const list = ids.length ? ids : [0];
  // "+ 0": the branch is checked on each row while the phone index gives the order, so each chunk reads
  // forward from the cursor (one pass over the index in all) instead of re-reading the branch's rows.
  const inBranches = sql`(${R.branch_id} + 0) in (${sql.join(list, sql`, `)})`;
  return [
    registrationArm(inBranches, a.cutoff),
    preregistrationArm(
      sql`(${inArray(P.branch_id, list)} or (${P.branch_id} is null and ${inArray(P.nearest_branch_id, list)}))`,
      a.cutoff,
    ),
  ];
}

const scopeOf = (a: Audience) => branchCondition(R.branch_id, { branchId: a.scopeBranchId });

/** The SQL each source of an audience runs per chunk, with its query plan (tests check the plans). */
export function audiencePlans(a: Audience): string[] {
  return armsOf(a).flatMap((arm) => {
    if (!arm.query) return [];
    const { sql: text, params } = arm.query(db, "", PREPARE_CHUNK).toSQL();
    const plan = db.$client.prepare(`explain query plan ${text}`).all(...params) as { detail: string }[];
    return [plan.map((p) => p.detail).join("; ")];
  });
}

/**
 * The next distinct phones after `after` over every source, in phone order:
 * each source gives up to `limit`; the union is complete up to the smallest
 * last phone of a source that gave a full page. `done` when every source ran out.
 */
export function nextPhones(exec: Executor, arms: Arm[], after: string, limit: number) {
  const pages = arms.map((arm) => arm.next(exec, after, limit));
  let bound: string | null = null;
  for (const page of pages) {
    if (page.length < limit) continue;
    const last = page[page.length - 1];
    if (bound === null || last < bound) bound = last;
  }
  const union = [...new Set(pages.flat())].filter((p) => bound === null || p <= bound).sort();
  return { phones: union, done: bound === null };
}

export type AudienceCount = { recipients: number; skipped: number };

/** Counts the distinct valid phones of an audience and the invalid ones skipped, in slices of a few milliseconds. */
export async function countAudience(a: Audience): Promise<AudienceCount> {
  const arms = armsOf(a);
  let after = "";
  let recipients = 0;
  let skipped = 0;
  let deadline = performance.now() + SLICE_MS;
  for (;;) {
    const { phones, done } = nextPhones(db, arms, after, COUNT_STEP);
    for (const p of phones) {
      if (isValid(p)) recipients++;
      else skipped++;
    }
    if (done || !phones.length) return { recipients, skipped };
    after = phones[phones.length - 1];
    if (performance.now() >= deadline) {
      await nextTurn();
      deadline = performance.now() + SLICE_MS;
    }
  }
}

// ---------------------------------------------------------------- checking the choice

/** Branches and customers chosen must exist, and be within the sender's scope. */
function choiceErrors(exec: Executor, scope: Scope, input: BroadcastInput): FieldErrors {
  const errors: FieldErrors = {};
  if (input.type === "BRANCH") {
    if (!isHeadOffice(scope) && input.branches.some((id) => id !== scope.branchId)) {
      errors.branches = [MSG.branchOutside];
    } else {
      const found = exec
        .select({ id: branches.id })
        .from(branches)
        .where(and(inArray(branches.id, input.branches), isNull(branches.deleted_at)))
        .all();
      if (found.length !== input.branches.length) errors.branches = [MSG.branchUnknown];
    }
  }
  if (input.type === "REGISTRANTS") {
    const found = exec
      .select({ id: R.id })
      .from(R)
      .where(and(inArray(R.id, input.registrants), isNull(R.deleted_at), branchCondition(R.branch_id, scope)))
      .all();
    if (found.length !== input.registrants.length) errors.registrants = [MSG.registrantUnknown];
  }
  return errors;
}

/** The field a "nobody to send to" message belongs under. */
const NOBODY_FIELD: Record<BroadcastType, string> = {
  ALL: "type",
  BRANCH: "branches",
  REGISTRANTS: "registrants",
  MOBILE: "mobiles",
};

function audienceOf(scope: Scope, input: BroadcastInput, cutoff: string): Audience & { duplicates: number } {
  const mobiles = [...new Set(input.mobiles)].sort();
  return {
    type: input.type,
    branches: [...input.branches].sort((x, y) => x - y),
    registrants: [...input.registrants].sort((x, y) => x - y),
    mobiles,
    scopeBranchId: scope.branchId,
    cutoff,
    duplicates: input.mobiles.length - mobiles.length,
  };
}

// ---------------------------------------------------------------- preview

export type BroadcastPreview = {
  type: BroadcastType;
  text: string;
  /** Distinct valid numbers the message goes to. */
  recipients: number;
  /** Stored numbers that are not valid mobiles, left out. */
  skipped: number;
  /** Numbers typed more than once (MOBILE), sent once. */
  duplicates: number;
  sms: SmsParts;
  /** SMS parts of the whole broadcast (recipients × parts of one message). */
  total_parts: number;
  /** The HTTP gateway's account credit, when it answers it. */
  credit: { provider: string; known: boolean; value: number | null; reason: string | null };
};

function creditView(credit: GatewayCredit | null): BroadcastPreview["credit"] {
  const provider = config.smsProvider();
  if (!credit) return { provider, known: false, value: null, reason: "the outbox keeps messages here" };
  return credit.known
    ? { provider, known: true, value: credit.credit, reason: null }
    : { provider, known: false, value: null, reason: credit.reason };
}

/**
 * What a broadcast would do, before it is sent: its recipients (distinct valid
 * numbers), the numbers skipped, the characters and SMS parts of the text,
 * the total parts and, with the HTTP gateway, the account's credit.
 */
export async function previewBroadcast(
  actor: ScopedActor,
  input: BroadcastInput,
): Promise<Result<{ preview: BroadcastPreview }>> {
  const errors = choiceErrors(db, actor.scope, input);
  if (Object.keys(errors).length) return fail.invalid(errors);
  const audience = audienceOf(actor.scope, input, nowIso());
  const [counted, credit] = await Promise.all([
    countAudience(audience),
    config.smsProvider() === "http" ? gatewayCredit() : Promise.resolve(null),
  ]);
  const sms = smsParts(input.text);
  return {
    ok: true,
    preview: {
      type: input.type,
      text: input.text,
      recipients: counted.recipients,
      skipped: counted.skipped,
      duplicates: audience.duplicates,
      sms,
      total_parts: counted.recipients * sms.parts,
      credit: creditView(credit),
    },
  };
}

// ---------------------------------------------------------------- sending

/** Whether a choice reaches anyone, from its first phones only (a first page of stored numbers all invalid: yes). */
function reachesAnyone(a: Audience): boolean {
  const { phones, done } = nextPhones(db, armsOf(a), "", 100);
  return phones.some(isValid) || !done;
}

/**
 * Accepts a broadcast at once: writes the broadcast and its audit row (who,
 * type, text, the choice, and the counts known now: a typed list's numbers
 * and duplicates) in one transaction, answers, and starts storing its
 * messages in the background (`prepareBroadcast`), which counts the
 * recipients as it goes and records the final counts (total, skipped) with a
 * second audit row. A choice that reaches nobody is refused under the type's
 * field (looked at on its first numbers only, so refusing costs nothing).
 */
export async function sendBroadcast(
  actor: ScopedActor,
  input: BroadcastInput,
): Promise<Result<{ broadcast: BroadcastView }>> {
  const early = choiceErrors(db, actor.scope, input);
  if (Object.keys(early).length) return fail.invalid(early);
  const cutoff = nowIso();
  const audience = audienceOf(actor.scope, input, cutoff);
  await nextTurn(); // a typed list of 100,000 numbers was just read and sorted: let other requests in
  if (!reachesAnyone(audience)) return fail.field(NOBODY_FIELD[input.type], MSG.nobody);
  const sms = smsParts(input.text);
  // A typed list is counted already (distinct valid numbers); the other choices are counted as they are stored.
  const known = input.type === "MOBILE" ? audience.mobiles.length : null;
  const created = transact((tx) => {
    // The choice again, inside the write (a branch closed or a customer deleted meanwhile).
    const errors = choiceErrors(tx, actor.scope, input);
    if (Object.keys(errors).length) throw new FailureError(fail.invalid(errors));
    const row = tx
      .insert(B)
      .values({
        type: input.type,
        text: input.text,
        branches: JSON.stringify(audience.branches),
        registrants: JSON.stringify(audience.registrants),
        mobiles: JSON.stringify(audience.mobiles),
        total: known ?? 0,
        duplicates: audience.duplicates,
        parts: sms.parts,
        encoding: sms.encoding,
        scope_branch_id: actor.scope.branchId,
        status: "queued",
        created_by: actor.id,
        created_at: cutoff,
      })
      .returning()
      .get();
    audit(tx, actor, {
      action: "sms.broadcast",
      entityType: "sms_broadcast",
      entityId: row.id,
      changes: {
        type: { before: null, after: row.type },
        text: { before: null, after: row.text },
        branches: { before: null, after: audience.branches },
        registrants: { before: null, after: audience.registrants.length },
        mobiles: { before: null, after: audience.mobiles.length },
        recipients: { before: null, after: known },
        duplicates: { before: null, after: audience.duplicates },
        parts: { before: null, after: sms.parts },
      },
    });
    return { ok: true as const, id: row.id };
  });
  if (!created.ok) return created;
  void prepareBroadcast(created.id);
  return { ok: true, broadcast: getBroadcast(actor.scope, created.id)! };
}

function audienceOfRow(row: SmsBroadcast): Audience {
  return {
    type: row.type,
    branches: JSON.parse(row.branches) as number[],
    registrants: JSON.parse(row.registrants) as number[],
    mobiles: JSON.parse(row.mobiles) as string[],
    scopeBranchId: row.scope_branch_id,
    cutoff: row.created_at,
  };
}

/**
 * Stores the next chunk of a broadcast's messages in one transaction (`arms`:
 * its audience's sources, when the caller has them already): the
 * next phones after its cursor, the valid ones as queued messages (the
 * others counted as skipped), the cursor moved on. The last chunk marks it
 * prepared (total = the messages stored) and writes the final counts' audit
 * row. Returns whether more is left.
 */
export function storeNextChunk(id: number, chunk = PREPARE_CHUNK, arms?: Arm[]): boolean {
  const more = db.transaction(
    (tx) => {
      const row = tx
        .select()
        .from(B)
        .where(and(eq(B.id, id), isNull(B.prepared_at)))
        .get();
      if (!row) return false;
      const { phones, done } = nextPhones(tx, arms ?? armsOf(audienceOfRow(row)), row.cursor, chunk);
      const valid = phones.filter(isValid);
      const stored = queueBroadcastChunk(tx, id, row.text, valid);
      const skipped = phones.length - valid.length;
      const cursor = phones.length ? phones[phones.length - 1] : row.cursor;
      const finished = done || !phones.length;
      const after = tx
        .update(B)
        .set(
          finished
            ? {
                stored: sql`${B.stored} + ${stored}`,
                skipped: sql`${B.skipped} + ${skipped}`,
                cursor,
                prepared_at: nowIso(),
                // SET expressions read the old values: the final total is every message stored.
                total: sql`${B.stored} + ${stored}`,
                status: sql`case when ${B.sent} + ${B.failed} >= ${B.stored} + ${stored} then 'done' else ${B.status} end`,
              }
            : { stored: sql`${B.stored} + ${stored}`, skipped: sql`${B.skipped} + ${skipped}`, cursor },
        )
        .where(eq(B.id, id))
        .returning()
        .get()!;
      if (finished) {
        audit(tx, SYSTEM, {
          action: "sms.broadcast_stored",
          entityType: "sms_broadcast",
          entityId: id,
          changes: {
            recipients: { before: row.total || null, after: after.total },
            skipped: { before: null, after: after.skipped },
          },
        });
      }
      return !finished;
    },
    { behavior: "immediate" },
  );
  wakeSmsWorker();
  return more;
}

const preparing = new Map<number, Promise<void>>();

/**
 * Stores every message of a broadcast, a chunk per transaction with the event
 * loop free between chunks; one run per broadcast in this process (a second
 * call joins the first). Safe beside another process doing the same: each
 * chunk starts from the cursor committed, and a number is stored once.
 */
export function prepareBroadcast(id: number): Promise<void> {
  const running = preparing.get(id);
  if (running) return running;
  const run = (async () => {
    try {
      await nextTurn(); // the request that accepted the broadcast answers first
      // Chunks sized to hold the event loop about SLICE_MS (fewer rows on a slow disk or a large database).
      let size = 100;
      // The choice never changes once sent: read (and a typed list parsed) once, not once per chunk.
      const row = db.select().from(B).where(eq(B.id, id)).get();
      if (!row || row.prepared_at) return;
      const arms = armsOf(audienceOfRow(row));
      for (;;) {
        const started = performance.now();
        if (!storeNextChunk(id, size, arms)) break;
        const took = performance.now() - started;
        if (took > 2 * SLICE_MS) size = Math.max(MIN_CHUNK, size >> 1);
        else if (took < SLICE_MS / 2) size = Math.min(PREPARE_CHUNK, size * 2);
        await nextTurn();
      }
    } catch (error) {
      console.error(`[sms] broadcast ${id}: storing its messages stopped`, error);
    } finally {
      preparing.delete(id);
    }
  })();
  preparing.set(id, run);
  return run;
}

/** On start: carries on storing the messages of broadcasts a stop interrupted. Returns how many. */
export function resumeBroadcasts(): number {
  const open = db.select({ id: B.id }).from(B).where(isNull(B.prepared_at)).orderBy(B.id).all();
  for (const { id } of open) void prepareBroadcast(id);
  return open.length;
}

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

// A typed list can hold 100,000 numbers (1.2 MB of JSON): the views count it in SQL and never read it.
const { mobiles: _typedList, ...listedColumns } = getTableColumns(B);
type ListedRow = Omit<SmsBroadcast, "mobiles">;

const viewSelection = {
  row: listedColumns,
  mobiles_count: sql<number>`json_array_length(${B.mobiles})`,
  user_name: users.name,
  user_email: users.email,
};

function viewOf(
  {
    row,
    mobiles_count,
    user_name,
    user_email,
  }: { row: ListedRow; mobiles_count: number; user_name: string | null; user_email: string | null },
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
const broadcastScope = (scope: Scope) => (isHeadOffice(scope) ? undefined : eq(B.scope_branch_id, scope.branchId));

/** One broadcast with its counts, within the scope; null otherwise. */
export function getBroadcast(scope: Scope, id: number): BroadcastView | null {
  const row = db
    .select(viewSelection)
    .from(B)
    .leftJoin(users, eq(users.id, B.created_by))
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
      db
        .select(viewSelection)
        .from(B)
        .leftJoin(users, eq(users.id, B.created_by))
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
    search: (term) => {
      const phone = normalizePhone(term);
      if (phone) return eq(M.to, phone);
      const digits = term.replace(/\D/g, "");
      return digits ? likePrefix(M.to, digits) : sql`0`;
    },
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

// ---------------------------------------------------------------- send the failed ones again

/** Puts up to `limit` failed messages of a broadcast back in the queue (same rows, fresh attempts); how many. */
function requeueFailed(exec: Executor, id: number, limit: number): number {
  const ids = exec
    .select({ id: M.id })
    .from(M)
    .where(and(eq(M.broadcast_id, id), eq(M.status, "failed"), sql`${M.to} glob ${VALID_PHONE}`))
    .orderBy(M.id)
    .limit(limit)
    .all()
    .map((r) => r.id);
  if (!ids.length) return 0;
  const at = nowIso();
  const changed = exec
    .update(M)
    .set(sentAgain(at))
    .where(and(inArray(M.id, ids), eq(M.status, "failed")))
    .run().changes;
  exec
    .update(B)
    .set({ failed: sql`max(${B.failed} - ${changed}, 0)`, status: "sending" })
    .where(eq(B.id, id))
    .run();
  return changed;
}

/**
 * "Send the failed ones again": every failed message of the broadcast goes
 * back to the queue as the same row (attempts reset, its failure taken back
 * from the broadcast's count), a chunk per transaction with the event loop
 * free between; the first chunk's transaction writes the audit row (who, how
 * many). Nothing failed is a conflict.
 */
export async function retryFailedMessages(actor: ScopedActor, id: number): Promise<Result<{ requeued: number }>> {
  const first = transact((tx) => {
    const row = tx
      .select()
      .from(B)
      .where(and(eq(B.id, id), broadcastScope(actor.scope)))
      .get();
    if (!row) throw new FailureError(fail.notFound(BROADCAST_NOT_FOUND));
    const failed =
      tx
        .select({ n: count() })
        .from(M)
        .where(and(eq(M.broadcast_id, id), eq(M.status, "failed"), sql`${M.to} glob ${VALID_PHONE}`))
        .get()?.n ?? 0;
    if (!failed) throw new FailureError(fail.conflict(NO_FAILED_MESSAGES));
    audit(tx, actor, {
      action: "sms.broadcast_retry",
      entityType: "sms_broadcast",
      entityId: id,
      changes: { failed: { before: failed, after: 0 }, requeued: { before: null, after: failed } },
    });
    return { ok: true as const, requeued: requeueFailed(tx, id, RETRY_CHUNK) };
  });
  if (!first.ok) return first;
  wakeSmsWorker();
  let requeued = first.requeued;
  for (;;) {
    await nextTurn();
    const n = db.transaction((tx) => requeueFailed(tx, id, RETRY_CHUNK), { behavior: "immediate" });
    if (!n) break;
    requeued += n;
    wakeSmsWorker();
  }
  return { ok: true, requeued };
}

// ---------------------------------------------------------------- the customer picker

export type RegistrantChoice = { value: number; label: string };

/**
 * Registered customers for the broadcast's customer select, by name or phone,
 * within the sender's scope (head office: every branch); the label shows the
 * phone masked (the number itself is what gets the SMS).
 */
export function searchBroadcastRegistrants(scope: Scope, q: string, limit = 10): RegistrantChoice[] {
  const term = q.trim();
  if (term.length < 2) return [];
  // A full phone: the phone index; a name (or part of a phone) of 3 or more characters: the full-text index.
  const phone = normalizePhone(term);
  const fts = ftsQuery(term);
  const match = phone
    ? eq(R.phone, phone)
    : fts
      ? sql`${R.id} in (select rowid from registrations_fts where registrations_fts match ${fts})`
      : or(likePrefix(R.name, term), likePrefix(R.phone, term));
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
