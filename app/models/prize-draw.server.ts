/**
 * The prize draw: second thrill (a verified pre-registration) and third thrill
 * (a confirmed registration). Every caller (public verify, admin verify,
 * registration draw, the JSON API) goes through drawSecondThrill / drawThirdThrill.
 *
 * Algorithm (docs/decisions/0006-prize-engine.md):
 * 1. The entry's pools: allocations of its pool type, branch and Kathmandu date
 *    with paid < count, highest amount first (ties: lower id first).
 * 2. One roll per pool in that order; the entry wins a pool when roll < probability/100.
 *    The first win takes one prize of that pool.
 * 3. No win: the fallback. Second thrill: the weighted base table from settings
 *    (one more roll). Third thrill: the base table when one is set, else 0 ("none").
 *
 * The pure part (ordering pools, rolling, weighted pick) is exported for the
 * statistics test and the payout preview. The database part has two phases
 * (docs/decisions/0019-fair-draws.md): the entry is fixed and chained inside the
 * caller's transaction (fixSecondThrill / fixThirdThrill), then drawn once the
 * first beacon round after that moment comes (settleDraw, app/models/draw-settle.server.ts),
 * in a write transaction that reads and pays the pools, so a pool never pays more
 * than its count and an entry is drawn at most once, across processes too.
 */
import crypto from "node:crypto";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import { insertReturning, prepared } from "@db/prepared";
import type { Draw } from "@db/schema";
import { fail, FailureError } from "~/utils/failure";
import type { AllocationType } from "~/utils/prize-constants";
import { readBaseTable, type BaseTableRow } from "~/models/prize-settings.server";
import { chainInfo, OTHER_CHAIN, roundAfter, roundTimeMs, type Material } from "~/models/beacon.server";
import { drawLeftBehind, drawThrough } from "~/models/draw-settle.server";
import { announceClosedDays } from "~/models/fair-observers.server";
import {
  appendRecord,
  commitAhead,
  drawReference,
  houseSeedOf,
  roundOf,
  termsOf,
  type Round,
} from "~/models/fair-draw.server";
import { bits53, drawText, entryText, poolsBefore, rollInput, unitOf } from "../../scripts/fair-draws-core.mjs";
import { kathmanduDate, now as clockNow } from "~/utils/time";

const { allocations, drawQueue, draws, preregistrations, registrations } = schema;

// ---------------------------------------------------------------- the rules (app/models/prize-rules.ts)

export * from "~/models/prize-rules";
import { orderPools, pickWeighted, rollPools, type DrawOutcome, type EntryType } from "~/models/prize-rules";
import type { PoolAudit, PoolState, RandomSource, Roll } from "~/models/prize-rules";

// ---------------------------------------------------------------- errors and results

export type DrawErrorCode = "not_found" | "not_verified" | "not_confirmed" | "conflict";

/**
 * A draw refused, thrown out of the draw's transaction: a FailureError, so a
 * caller's `transact` rolls back and returns its Failure (not found, or a
 * conflict with the entry's state or a pool taken meanwhile). `code` says
 * which, for the callers that retry a pool race.
 */
export class DrawError extends FailureError {
  constructor(
    readonly code: DrawErrorCode,
    message: string,
  ) {
    super(code === "not_found" ? fail.notFound(message) : fail.conflict(message));
    this.name = "DrawError";
  }
}

export const DRAW_MESSAGES = {
  preregistrationNotFound: "Pre-registration not found.",
  registrationNotFound: "Registration not found.",
  notVerified: "This pre-registration is not verified yet, so its prize cannot be drawn.",
  notConfirmed: "This registration is not confirmed yet, so its coupon cannot be drawn.",
  conflict: "The prize pool changed during the draw. Please try again.",
} as const;

export type DrawOptions = {
  /** Uniform values in [0, 1); default: the day's committed seed (app/models/fair-draw.server.ts). */
  random?: RandomSource;
  /** The instant of the draw (its Kathmandu date picks the pools); default: the clock. */
  now?: Date;
};

export type DrawResult = {
  amount: number;
  outcome: DrawOutcome;
  allocation_id: number | null;
  draw: Draw;
  /** True when this call made the draw, false when it returned an earlier one. */
  created: boolean;
};

const resultOf = (draw: Draw, created: boolean): DrawResult => ({
  amount: draw.amount,
  outcome: draw.outcome,
  allocation_id: draw.allocation_id,
  draw,
  created,
});

// ---------------------------------------------------------------- the transactional part

const drawOfEntry = prepared((q) =>
  q
    .select()
    .from(draws)
    .where(and(eq(draws.entry_type, sql.placeholder("entryType")), eq(draws.entry_id, sql.placeholder("entryId"))))
    .prepare(),
);

function findDraw(exec: Executor, entryType: EntryType, entryId: number): Draw | undefined {
  return drawOfEntry(exec).get({ entryType, entryId });
}

export function getDraw(entryType: EntryType, entryId: number): Draw | null {
  return findDraw(db, entryType, entryId) ?? null;
}

/**
 * The pools an entry of a type, branch and Kathmandu date draws from: only those
 * with prizes left, unless `withPaidOut` (the payout preview shows every pool).
 */
export function poolsOf(
  exec: Executor,
  type: AllocationType,
  branchId: number | null,
  date: string,
  { withPaidOut = false } = {},
): PoolState[] {
  if (!withPaidOut) return poolsWithPrizesLeft(exec).all({ type, date, branchId });
  return exec
    .select(poolColumns)
    .from(allocations)
    .where(
      and(
        eq(allocations.type, type),
        eq(allocations.date, date),
        branchId === null ? isNull(allocations.branch_id) : eq(allocations.branch_id, branchId),
      ),
    )
    .all();
}

const poolColumns = {
  id: allocations.id,
  amount: allocations.amount,
  count: allocations.count,
  paid: allocations.paid,
  probability: allocations.probability,
};

const poolsWithPrizesLeft = prepared((q) =>
  q
    .select(poolColumns)
    .from(allocations)
    .where(
      and(
        eq(allocations.type, sql.placeholder("type")),
        eq(allocations.date, sql.placeholder("date")),
        // IS: a null branch (head office's pools) matches null, as isNull would.
        sql`${allocations.branch_id} is ${sql.placeholder("branchId")}`,
        lt(allocations.paid, allocations.count),
      ),
    )
    .prepare(),
);

const paidOfDay = prepared((q) =>
  q
    .select({ id: allocations.id, paid: allocations.paid })
    .from(allocations)
    .where(eq(allocations.date, sql.placeholder("date")))
    .prepare(),
);

/** One prize more paid from a pool, only while it has one left (0 changes when another draw took the last). */
const payOne = prepared((q) =>
  q
    .update(allocations)
    .set({ paid: sql`${allocations.paid} + 1` })
    .where(and(eq(allocations.id, sql.placeholder("id")), lt(allocations.paid, allocations.count)))
    .prepare(),
);

const insertDraw = insertReturning(draws);

type Entry = {
  thrill: 2 | 3;
  entryType: EntryType;
  entryId: number;
  /** The entry's slug: its public id (reference) is made from it. */
  slug: string;
  poolType: AllocationType;
  branchId: number | null;
};

/** Rolls the rules over `pools` and takes the prize won (the pool's count re-checked by the update). */
function applyRules(
  tx: Executor,
  pools: PoolState[],
  baseTable: BaseTableRow[],
  round: Round,
  next: RandomSource,
): { amount: number; outcome: DrawOutcome; allocationId: number | null; considered: PoolAudit[]; rolls: Roll[] } {
  const considered: PoolAudit[] = orderPools(pools).map((p) => ({ ...p, remaining: p.count - p.paid }));
  const { winner, rolls } = rollPools<PoolState>(considered, next);
  const all: Roll[] = [...rolls];
  if (winner) {
    if (payOne(tx).run({ id: winner.id }).changes !== 1) throw new DrawError("conflict", DRAW_MESSAGES.conflict);
    return { amount: winner.amount, outcome: "pool", allocationId: winner.id, considered, rolls: all };
  }
  let amount = 0;
  let outcome: DrawOutcome = "none";
  if (baseTable.length) {
    const value = next();
    const row = pickWeighted(baseTable, value);
    if (row) {
      amount = row.amount;
      outcome = "fallback";
    }
    all.push({ stage: "base", table: round, value, amount });
  }
  return { amount, outcome, allocationId: null, considered, rolls: all };
}

/** The entry's prize written where its pages read it. */
function setEntryPrize(tx: Executor, entryType: EntryType, entryId: number, amount: number, at: string) {
  if (entryType === "preregistration") setPrize(tx).run({ id: entryId, prize: amount, at });
  else
    tx.update(registrations)
      .set({ coupon_amount: amount, status: "drawn", updated_at: at })
      .where(eq(registrations.id, entryId))
      .run();
}

const queueOf = prepared((q) =>
  q
    .select()
    .from(drawQueue)
    .where(
      and(eq(drawQueue.entry_type, sql.placeholder("entryType")), eq(drawQueue.entry_id, sql.placeholder("entryId"))),
    )
    .prepare(),
);

/**
 * Fixes an entry's draw (phase one, inside the caller's transaction): its record joins the chain
 * with its public id, its pools, the day's terms and the beacon round that will decide it (the
 * first after this moment), and it waits in draw_queue. True when this call fixed it; false when
 * it was fixed or drawn before.
 */
function fixEntry(tx: Executor, e: Entry, at?: Date): boolean {
  if (findDraw(tx, e.entryType, e.entryId) || queueOf(tx).get({ entryType: e.entryType, entryId: e.entryId })) {
    return false;
  }
  commitAhead(tx, at ?? clockNow());
  announceClosedDays(tx, at ?? clockNow());
  const ref = drawReference(e.slug);
  const round = roundOf(e.thrill);
  let fixed = { date: "", round: null as number | null };
  const record = appendRecord(
    tx,
    "entry",
    ref,
    ({ seq, prev, time }) => {
      const date = kathmanduDate(new Date(time));
      const { terms, hash } = termsOf(tx, date);
      const beaconRound = terms.chain ? roundAfter(terms.chain, Date.parse(time)) : null;
      fixed = { date, round: beaconRound };
      const text = entryText({
        seq,
        time,
        date,
        id: ref,
        round,
        pool_type: e.poolType,
        branch: e.branchId,
        terms: hash,
        beacon_round: beaconRound,
        prev,
      });
      return { text, date };
    },
    { at },
  );
  tx.insert(drawQueue)
    .values({
      entry_seq: record.seq,
      entry_hash: record.hash,
      entry_type: e.entryType,
      entry_id: e.entryId,
      thrill: e.thrill,
      ref,
      date: fixed.date,
      pool_type: e.poolType,
      branch_id: e.branchId,
      beacon_round: fixed.round,
      time: record.time,
    })
    .run();
  return true;
}

export type QueuedDraw = typeof drawQueue.$inferSelect;

/**
 * Draws a fixed entry (phase two, inside a write transaction): the day's committed pools less
 * what the day's draws paid, rolls from the round's randomness (or the house seed), the prize
 * taken, the draw's record chained, the entry's prize set.
 */
export function resolveQueued(tx: Executor, row: QueuedDraw, given: Material): Draw {
  const { terms } = termsOf(tx, row.date);
  const m: Material =
    given.source === "beacon" && terms.chain?.chain_hash !== chainInfo()?.chain_hash
      ? { source: "house", round: given.round, reason: OTHER_CHAIN }
      : given;
  const round = roundOf(row.thrill);
  const paid = new Map(
    paidOfDay(tx)
      .all({ date: row.date })
      .map((p) => [p.id, p.paid]),
  );
  const pools: PoolState[] = poolsBefore(terms, row.pool_type, row.branch_id, paid);
  const baseTable = terms.base_tables[round];
  const key = Buffer.from(m.source === "beacon" ? m.randomness : houseSeedOf(tx, row.date), "hex");
  const bits: number[] = [];
  const next = () => {
    const digest = crypto.createHmac("sha256", key).update(rollInput(row.entry_hash, bits.length)).digest();
    bits.push(bits53(digest));
    return unitOf(bits[bits.length - 1]);
  };
  const result = applyRules(tx, pools, baseTable, round, next);
  result.rolls.forEach((r, k) => (r.input = rollInput(row.entry_hash, k)));
  const record = appendRecord(
    tx,
    "draw",
    row.ref,
    ({ seq, prev, time }) => ({
      date: row.date,
      text: drawText({
        seq,
        time,
        date: row.date,
        entry: row.entry_seq,
        entry_hash: row.entry_hash,
        id: row.ref,
        source: m.source,
        beacon_round: row.beacon_round,
        signature: m.source === "beacon" ? m.signature : null,
        reason: m.source === "house" ? m.reason : null,
        pools,
        base_table: baseTable,
        rolls: bits,
        prize: { amount: result.amount, outcome: result.outcome, pool: result.allocationId },
        prev,
      }),
    }),
    { notBefore: m.source === "beacon" && terms.chain ? roundTimeMs(terms.chain, m.round) : undefined },
  );
  const draw = insertDraw(tx, {
    thrill: row.thrill,
    entry_type: row.entry_type,
    entry_id: row.entry_id,
    pool_type: row.pool_type,
    branch_id: row.branch_id,
    date: row.date,
    allocation_id: result.allocationId,
    amount: result.amount,
    outcome: result.outcome,
    pools: JSON.stringify(result.considered),
    rolls: JSON.stringify(result.rolls),
    created_at: record.time,
    ref: row.ref,
    base_table: JSON.stringify(baseTable),
    record_seq: record.seq,
  });
  setEntryPrize(tx, row.entry_type, row.entry_id, result.amount, record.time);
  tx.delete(drawQueue).where(eq(drawQueue.entry_seq, row.entry_seq)).run();
  return draw;
}

/**
 * A draw with values given by the caller (the rules' tests): in one transaction, from the pools
 * of the date of `at`, outside the public record (its rolls come from no beacon).
 */
function drawWithValues(e: Entry, at: Date, random: RandomSource, exec: Executor): DrawResult {
  const existing = findDraw(exec, e.entryType, e.entryId);
  if (existing) return resultOf(existing, false);
  const date = kathmanduDate(at);
  const round = roundOf(e.thrill);
  const baseTable = readBaseTable(exec, round);
  const result = applyRules(exec, poolsOf(exec, e.poolType, e.branchId, date), baseTable, round, random);
  const createdAt = at.toISOString();
  const draw = insertDraw(exec, {
    thrill: e.thrill,
    entry_type: e.entryType,
    entry_id: e.entryId,
    pool_type: e.poolType,
    branch_id: e.branchId,
    date,
    allocation_id: result.allocationId,
    amount: result.amount,
    outcome: result.outcome,
    pools: JSON.stringify(result.considered),
    rolls: JSON.stringify(result.rolls),
    created_at: createdAt,
    ref: drawReference(e.slug),
    base_table: JSON.stringify(baseTable),
    record_seq: null,
  });
  setEntryPrize(exec, e.entryType, e.entryId, result.amount, createdAt);
  return resultOf(draw, true);
}

const preregistrationToDraw = prepared((q) =>
  q
    .select({
      id: preregistrations.id,
      slug: preregistrations.slug,
      is_verified: preregistrations.is_verified,
      branch_id: preregistrations.branch_id,
      deleted_at: preregistrations.deleted_at,
    })
    .from(preregistrations)
    .where(eq(preregistrations.id, sql.placeholder("id")))
    .prepare(),
);

const setPrize = prepared((q) =>
  q
    .update(preregistrations)
    .set({ prize: sql`${sql.placeholder("prize")}`, updated_at: sql`${sql.placeholder("at")}` })
    .where(eq(preregistrations.id, sql.placeholder("id")))
    .prepare(),
);

/** The second thrill's entry, checked: verified and not deleted. */
function secondThrillEntry(exec: Executor, id: number): Entry {
  const entry = preregistrationToDraw(exec).get({ id });
  if (!entry || entry.deleted_at) throw new DrawError("not_found", DRAW_MESSAGES.preregistrationNotFound);
  if (!entry.is_verified) throw new DrawError("not_verified", DRAW_MESSAGES.notVerified);
  return {
    thrill: 2,
    entryType: "preregistration",
    entryId: entry.id,
    slug: entry.slug,
    poolType: entry.branch_id === null ? "preregistration_public" : "preregistration_branch",
    branchId: entry.branch_id,
  };
}

/** The third thrill's entry, checked: confirmed and not deleted. */
function thirdThrillEntry(exec: Executor, id: number): Entry {
  const entry = exec
    .select({
      id: registrations.id,
      slug: registrations.slug,
      status: registrations.status,
      branch_id: registrations.branch_id,
      deleted_at: registrations.deleted_at,
    })
    .from(registrations)
    .where(eq(registrations.id, id))
    .get();
  if (!entry || entry.deleted_at) throw new DrawError("not_found", DRAW_MESSAGES.registrationNotFound);
  if (entry.status !== "confirmed" && entry.status !== "drawn")
    throw new DrawError("not_confirmed", DRAW_MESSAGES.notConfirmed);
  return {
    thrill: 3,
    entryType: "registration",
    entryId: entry.id,
    slug: entry.slug,
    poolType: "registration_branch",
    branchId: entry.branch_id,
  };
}

/**
 * Fixes the second thrill of a verified pre-registration inside the caller's transaction (public
 * entries draw from preregistration_public pools, branch-made ones from their branch's
 * preregistration_branch pools). True when this call fixed it. Then `settleDraw` draws it.
 */
export function fixSecondThrill(tx: Executor, preregistrationId: number, at?: Date): boolean {
  if (findDraw(tx, "preregistration", preregistrationId)) return false;
  return fixEntry(tx, secondThrillEntry(tx, preregistrationId), at);
}

/** Fixes the third thrill of a confirmed registration (its branch's registration_branch pools). */
export function fixThirdThrill(tx: Executor, registrationId: number, at?: Date): boolean {
  if (findDraw(tx, "registration", registrationId)) return false;
  return fixEntry(tx, thirdThrillEntry(tx, registrationId), at);
}

/** Whether an entry's draw is fixed (waiting for its round) or made: a read, no lock. */
export const isFixedOrDrawn = (entryType: EntryType, entryId: number) =>
  findDraw(db, entryType, entryId) !== undefined || queueOf(db).get({ entryType, entryId }) !== undefined;

/**
 * The entry's draw, once made: resolves when its round came (or the house seed stood in). `background`: no
 * request waits for this one.
 */
export async function settleDraw(
  entryType: EntryType,
  entryId: number,
  created = false,
  { background = false } = {},
): Promise<DrawResult> {
  for (;;) {
    const done = getDraw(entryType, entryId);
    if (done) return resultOf(done, created);
    const queued = queueOf(db).get({ entryType, entryId });
    if (!queued)
      throw new DrawError(
        "not_found",
        entryType === "preregistration" ? DRAW_MESSAGES.preregistrationNotFound : DRAW_MESSAGES.registrationNotFound,
      );
    await drawThrough(queued, resolveQueued, { background });
  }
}

/** Draws the entries a stopped process left fixed and undrawn (the background sweep). */
export const drawLeftOver = () => drawLeftBehind(resolveQueued, clockNow());

type WithValues = DrawOptions & { random: RandomSource };
type Fixed = DrawOptions & { random?: undefined };

/**
 * Second thrill of a verified pre-registration: fixed, then drawn once its beacon round comes.
 * Sets preregistrations.prize. Drawing again returns the first result unchanged. With
 * `opts.random` (tests of the rules) the draw is made at once from those values, off the record.
 */
export function drawSecondThrill(id: number, opts: WithValues): DrawResult;
export function drawSecondThrill(id: number, opts?: Fixed): Promise<DrawResult>;
export function drawSecondThrill(id: number, opts: DrawOptions = {}): DrawResult | Promise<DrawResult> {
  return drawEntry("preregistration", id, secondThrillEntry, opts);
}

/** Third thrill of a confirmed registration: sets registrations.coupon_amount and status 'drawn'. */
export function drawThirdThrill(id: number, opts: WithValues): DrawResult;
export function drawThirdThrill(id: number, opts?: Fixed): Promise<DrawResult>;
export function drawThirdThrill(id: number, opts: DrawOptions = {}): DrawResult | Promise<DrawResult> {
  return drawEntry("registration", id, thirdThrillEntry, opts);
}

function drawEntry(
  entryType: EntryType,
  id: number,
  entryOf: (exec: Executor, id: number) => Entry,
  opts: DrawOptions,
): DrawResult | Promise<DrawResult> {
  const random = opts.random;
  if (random) {
    const at = opts.now ?? clockNow();
    return guarded(entryType, id, () =>
      db.transaction((tx) => drawWithValues(entryOf(tx, id), at, random, tx), { behavior: "immediate" }),
    );
  }
  const created = db.transaction(
    (tx) => {
      const existing = findDraw(tx, entryType, id);
      if (existing) return false;
      return fixEntry(tx, entryOf(tx, id), opts.now);
    },
    { behavior: "immediate" },
  );
  return settleDraw(entryType, id, created);
}

const isUniqueViolation = (err: unknown) =>
  typeof err === "object" &&
  err !== null &&
  String((err as { code?: string }).code).startsWith("SQLITE_CONSTRAINT") &&
  /draws\.|draw record/.test(String((err as Error).message));

/** Runs a draw; should the database refuse a second row for the entry, the first row is the answer. */
function guarded(entryType: EntryType, entryId: number, run: () => DrawResult): DrawResult {
  try {
    return run();
  } catch (err) {
    if (isUniqueViolation(err)) {
      const existing = getDraw(entryType, entryId);
      if (existing) return resultOf(existing, false);
    }
    throw err;
  }
}

// ---------------------------------------------------------------- the audit screen

export type DrawAudit = { pools: PoolAudit[]; rolls: Roll[] };

export function parseDrawAudit(draw: Pick<Draw, "pools" | "rolls">): DrawAudit {
  return { pools: JSON.parse(draw.pools) as PoolAudit[], rolls: JSON.parse(draw.rolls) as Roll[] };
}
