/**
 * SMS broadcasts (spec 001 §2.10; docs/decisions/0016-broadcasts-and-referrers.md):
 * the preview, sending a broadcast, and sending its failed messages again.
 * Who it reaches is written in broadcast-audience.server.ts; its history and
 * recipients are read in broadcast-read.server.ts.
 *
 * Who it reaches (decision 16, "Who a broadcast reaches"):
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
 * moves the broadcast's sent and failed counts (app/models/sms-delivery.server.ts).
 */
import { and, count, eq, inArray, isNull, sql } from "drizzle-orm";
import { setImmediate as nextTurn } from "node:timers/promises";
import { db, schema, type Executor } from "@db/index";
import type { SmsBroadcast } from "@db/schema";
import { audit, SYSTEM } from "~/models/audit.server";
import { fail, FailureError, type Result } from "~/utils/failure";
import { gatewayCredit, type GatewayCredit } from "~/models/sms-provider.server";
import { queueBroadcastChunk, wakeSmsWorker } from "~/models/sms.server";
import { sentAgain } from "~/models/sms-outbox.server";
import { transact, transactTogether } from "~/models/transaction.server";
import { BROADCAST_MESSAGES as MSG, type BroadcastInput, type BroadcastType } from "~/schemas/broadcast";
import { config } from "~/utils/config.server";
import { smsParts, type SmsParts } from "~/utils/sms-parts";
import { nowIso } from "~/utils/time";
import { type ScopedActor } from "./scope.server";
import { BROADCAST_NOT_FOUND, broadcastScope, type BroadcastView, getBroadcast } from "./broadcast-read.server";
import {
  type Arm,
  armsOf,
  PREPARE_CHUNK,
  type Audience,
  audienceOf,
  choiceErrors,
  countAudience,
  isValid,
  nextPhones,
  NOBODY_FIELD,
  SLICE_MS,
  VALID_PHONE,
} from "./broadcast-audience.server";

const { smsBroadcasts: B, smsMessages: M } = schema;

export const NO_FAILED_MESSAGES = "There are no failed messages to send again.";

/** The fewest messages a chunk stores when chunks are slow (a large database, a busy disk). */
const MIN_CHUNK = 25;
/** Failed messages put back in the queue per transaction by "send the failed ones again". */
const RETRY_CHUNK = 1000;

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
  const audience = await audienceOf(actor.scope, input, nowIso());
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

/** A typed list longer than this is written in a turn of the event loop of its own. */
const BIG_LIST = 10_000;

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
  // A typed list of 100,000 numbers was just read by its schema, and is sorted next (in steps), written
  // as JSON, then stored: each in a turn of the event loop of its own, with other requests let in between.
  await nextTurn();
  const audience = await audienceOf(actor.scope, input, cutoff);
  await nextTurn();
  if (!reachesAnyone(audience)) return fail.field(NOBODY_FIELD[input.type], MSG.nobody);
  const sms = smsParts(input.text);
  // A typed list is counted already (distinct valid numbers); the other choices are counted as they are stored.
  const known = input.type === "MOBILE" ? audience.mobiles.length : null;
  const typed = input.type === "MOBILE" ? JSON.stringify(audience.mobiles) : null;
  if (known !== null && known > BIG_LIST) await nextTurn();
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
    if (typed !== null) {
      tx.insert(schema.smsBroadcastMobiles)
        .values({ broadcast_id: row.id, mobiles: typed, count: audience.mobiles.length })
        .run();
    }
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
  void prepareBroadcast(created.id, audience);
  // The write of a long list took its own turn too: the answer is read in the next.
  if (known !== null && known > BIG_LIST) await nextTurn();
  return { ok: true, broadcast: getBroadcast(actor.scope, created.id)! };
}

/** A broadcast's choice as stored (a typed list read from its own table); undefined when there is no such broadcast. */
function storedAudience(exec: Executor, id: number): Audience | undefined {
  const row = exec
    .select({ broadcast: B, mobiles: schema.smsBroadcastMobiles.mobiles })
    .from(B)
    .leftJoin(schema.smsBroadcastMobiles, eq(schema.smsBroadcastMobiles.broadcast_id, B.id))
    .where(eq(B.id, id))
    .get();
  if (!row) return undefined;
  return audienceOfRow(row.broadcast, row.mobiles);
}

function audienceOfRow(row: SmsBroadcast, mobiles: string | null): Audience {
  return {
    type: row.type,
    branches: JSON.parse(row.branches) as number[],
    registrants: JSON.parse(row.registrants) as number[],
    mobiles: JSON.parse(mobiles ?? "[]") as string[],
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
 * row. Returns whether more is left. A write in the process's shared commits
 * (transactTogether): while another process holds the write lock, the chunk
 * waits by timer, not asleep in SQLite's busy handler with the process's
 * visitors waiting behind it.
 */
export async function storeNextChunk(id: number, chunk = PREPARE_CHUNK, arms?: Arm[]): Promise<boolean> {
  // Nothing in it fails as a Failure.
  const more = (await transactTogether((tx) => {
    // Its progress only: the choice (a typed list is 1.2 MB of text) is read when the caller has no arms.
    const row = tx
      .select({ text: B.text, cursor: B.cursor, total: B.total })
      .from(B)
      .where(and(eq(B.id, id), isNull(B.prepared_at)))
      .get();
    if (!row) return false;
    const sources = arms ?? armsOf(storedAudience(tx, id)!);
    const { phones, done } = nextPhones(tx, sources, row.cursor, chunk);
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
  })) as boolean;
  wakeSmsWorker();
  return more;
}

const preparing = new Map<number, Promise<void>>();

/**
 * Stores every message of a broadcast (`audience`: its choice as the sender's
 * request read it, when at hand), a chunk per transaction with the event
 * loop free between chunks; one run per broadcast in this process (a second
 * call joins the first). Safe beside another process doing the same: each
 * chunk starts from the cursor committed, and a number is stored once.
 */
export function prepareBroadcast(id: number, audience?: Audience): Promise<void> {
  const running = preparing.get(id);
  if (running) return running;
  const run = (async () => {
    try {
      await nextTurn(); // the request that accepted the broadcast answers first
      // Chunks sized to hold the event loop about SLICE_MS (fewer rows on a slow disk or a large database).
      let size = 100;
      // The choice never changes once sent: the sender's as accepted, or read (and a typed list parsed)
      // once, not once per chunk. storeNextChunk stops at a broadcast stored already.
      let choice = audience;
      if (!choice) {
        const prepared = db.select({ at: B.prepared_at }).from(B).where(eq(B.id, id)).get();
        if (!prepared || prepared.at) return;
        choice = storedAudience(db, id)!;
      }
      const arms = armsOf(choice);
      for (;;) {
        const started = performance.now();
        if (!(await storeNextChunk(id, size, arms))) break;
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
