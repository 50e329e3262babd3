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
 * statistics test and the payout preview. The database part runs in one
 * synchronous IMMEDIATE transaction, so a pool never pays more than its count
 * and an entry is drawn at most once, across processes too.
 */
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import { insertReturning, prepared } from "@db/prepared";
import type { Draw } from "@db/schema";
import { fail, FailureError } from "~/utils/failure";
import type { AllocationType } from "~/utils/prize-constants";
import { readBaseTable, type BaseTableRow } from "~/models/prize-settings.server";
import { randomUnit } from "~/utils/crypto.server";
import { chainLink, drawReference, drawSource, roundOf } from "~/models/fair-draw.server";
import { kathmanduDate, now as clockNow } from "~/utils/time";

const { allocations, draws, preregistrations, registrations } = schema;

// ---------------------------------------------------------------- the pure part

export type RandomSource = () => number;

/** A pool as the draw sees it. */
export type PoolState = { id: number; amount: number; count: number; paid: number; probability: number };

/** A pool in the audit log: its state before the draw. */
export type PoolAudit = PoolState & { remaining: number };

export type PoolRoll = {
  stage: "pool";
  /** The roll's public input (fair draws: the value is HMAC-SHA256 of the day's seed and this). */
  input?: string;
  allocation_id: number;
  amount: number;
  probability: number;
  value: number;
  win: boolean;
};
export type BaseRoll = { stage: "base"; input?: string; table: "second" | "third"; value: number; amount: number };
export type Roll = PoolRoll | BaseRoll;

export type DrawOutcome = "pool" | "fallback" | "none";
export type EntryType = "preregistration" | "registration";

/** Pools with prizes left, highest amount first, ties by lower id. */
export function orderPools<P extends PoolState>(pools: readonly P[]): P[] {
  return pools.filter((p) => p.paid < p.count).sort((a, b) => b.amount - a.amount || a.id - b.id);
}

/** A roll wins a pool when it is below probability/100 (so 0 never wins, 100 always does). */
export const rollWins = (value: number, probability: number) => value < probability / 100;

/**
 * Rolls once per pool with prizes left, in draw order, and stops at the first win.
 * Without a random source it uses the cryptographic one.
 */
export function rollPools<P extends PoolState>(
  pools: readonly P[],
  random: RandomSource = randomUnit,
): { winner: P | null; rolls: PoolRoll[] } {
  const rolls: PoolRoll[] = [];
  for (const pool of orderPools(pools)) {
    const value = random();
    const win = rollWins(value, pool.probability);
    rolls.push({
      stage: "pool",
      allocation_id: pool.id,
      amount: pool.amount,
      probability: pool.probability,
      value,
      win,
    });
    if (win) return { winner: pool, rolls };
  }
  return { winner: null, rolls };
}

/** The row of a weighted table that a uniform value in [0, 1) lands on; null for an empty table. */
export function pickWeighted<R extends { weight: number }>(rows: readonly R[], value: number): R | null {
  const total = rows.reduce((s, r) => s + r.weight, 0);
  if (!rows.length || !(total > 0)) return null;
  const target = value * total;
  let cumulative = 0;
  for (const row of rows) {
    cumulative += row.weight;
    if (target < cumulative) return row;
  }
  return rows[rows.length - 1];
}

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

function findDraw(exec: Executor, entryType: EntryType, entryId: number): Draw | undefined {
  return drawOfEntry(exec).get({ entryType, entryId });
}

const drawOfEntry = prepared((q) =>
  q
    .select()
    .from(draws)
    .where(and(eq(draws.entry_type, sql.placeholder("entryType")), eq(draws.entry_id, sql.placeholder("entryId"))))
    .prepare(),
);

export function getDraw(entryType: EntryType, entryId: number): Draw | null {
  return findDraw(db, entryType, entryId) ?? null;
}

type PoolDrawInput = {
  thrill: 2 | 3;
  entryType: EntryType;
  entryId: number;
  /** The entry's slug: its public draw reference is made from it. */
  slug: string;
  poolType: AllocationType;
  branchId: number | null;
  at: Date;
  random?: RandomSource;
  baseTable: BaseTableRow[];
};

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

/** One prize more paid from a pool, only while it has one left (0 changes when another draw took the last). */
const payOne = prepared((q) =>
  q
    .update(allocations)
    .set({ paid: sql`${allocations.paid} + 1` })
    .where(and(eq(allocations.id, sql.placeholder("id")), lt(allocations.paid, allocations.count)))
    .prepare(),
);

const insertDraw = insertReturning(draws);

/**
 * Rolls against the entry's pools, takes the prize won, falls back, and writes the draws row
 * as the next link of the day's chained record. Runs inside a transaction.
 */
function drawFromPools(tx: Executor, input: PoolDrawInput): Draw {
  const date = kathmanduDate(input.at);
  const round = roundOf(input.thrill);
  const ref = drawReference(input.slug);
  const source = drawSource(tx, date, round, ref, input.random);
  const pools = poolsOf(tx, input.poolType, input.branchId, date);
  const considered: PoolAudit[] = orderPools(pools).map((p) => ({ ...p, remaining: p.count - p.paid }));
  const { winner, rolls } = rollPools<PoolState>(considered, source.next);
  const allRolls: Roll[] = [...rolls];

  let amount = 0;
  let outcome: DrawOutcome = "none";
  let allocationId: number | null = null;
  if (winner) {
    const taken = payOne(tx).run({ id: winner.id });
    if (taken.changes !== 1) throw new DrawError("conflict", DRAW_MESSAGES.conflict);
    amount = winner.amount;
    outcome = "pool";
    allocationId = winner.id;
  } else if (input.baseTable.length) {
    const value = source.next();
    const row = pickWeighted(input.baseTable, value);
    if (row) {
      amount = row.amount;
      outcome = "fallback";
    }
    allRolls.push({ stage: "base", table: round, value, amount });
  }
  allRolls.forEach((r, k) => (r.input = source.inputs[k]));

  const baseTable = input.baseTable.map(({ amount, weight }) => ({ amount, weight }));
  const createdAt = input.at.toISOString();
  const chain = chainLink(tx, date, {
    time: createdAt,
    round,
    ref,
    branch: input.branchId,
    pool_type: input.poolType,
    pools: considered,
    base_table: baseTable,
    rolls: allRolls.map((r) => ({ input: r.input ?? "", value: r.value })),
    prize: { amount, outcome, allocation_id: allocationId },
  });

  return insertDraw(tx, {
    thrill: input.thrill,
    entry_type: input.entryType,
    entry_id: input.entryId,
    pool_type: input.poolType,
    branch_id: input.branchId,
    date,
    allocation_id: allocationId,
    amount,
    outcome,
    pools: JSON.stringify(considered),
    rolls: JSON.stringify(allRolls),
    created_at: createdAt,
    ref,
    base_table: JSON.stringify(baseTable),
    ...chain,
  });
}

const isUniqueViolation = (err: unknown) =>
  typeof err === "object" &&
  err !== null &&
  (err as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE" &&
  String((err as Error).message).includes("draws.");

/** Runs a draw; should the unique index on draws refuse a second row, the first row is the answer. */
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

/**
 * Second thrill of a verified pre-registration. Public pre-registrations (no
 * branch) draw from preregistration_public pools, branch-made ones from their
 * branch's preregistration_branch pools. Sets preregistrations.prize.
 * Drawing again returns the first result unchanged.
 */
export function drawSecondThrill(preregistrationId: number, opts: DrawOptions = {}): DrawResult {
  const at = opts.now ?? clockNow();
  const random = opts.random;
  return guarded("preregistration", preregistrationId, () =>
    db.transaction(
      (tx) => {
        const entry = preregistrationToDraw(tx).get({ id: preregistrationId });
        if (!entry) throw new DrawError("not_found", DRAW_MESSAGES.preregistrationNotFound);
        const existing = findDraw(tx, "preregistration", entry.id);
        if (existing) return resultOf(existing, false);
        if (entry.deleted_at) throw new DrawError("not_found", DRAW_MESSAGES.preregistrationNotFound);
        if (!entry.is_verified) throw new DrawError("not_verified", DRAW_MESSAGES.notVerified);

        const draw = drawFromPools(tx, {
          thrill: 2,
          entryType: "preregistration",
          entryId: entry.id,
          slug: entry.slug,
          poolType: entry.branch_id === null ? "preregistration_public" : "preregistration_branch",
          branchId: entry.branch_id,
          at,
          random,
          baseTable: readBaseTable(tx, "second"),
        });
        setPrize(tx).run({ id: entry.id, prize: draw.amount, at: at.toISOString() });
        return resultOf(draw, true);
      },
      { behavior: "immediate" },
    ),
  );
}

/**
 * Third thrill of a confirmed registration, from its branch's registration_branch
 * pools. Sets registrations.coupon_amount and status 'drawn'. Drawing again
 * returns the first result unchanged.
 */
export function drawThirdThrill(registrationId: number, opts: DrawOptions = {}): DrawResult {
  const at = opts.now ?? clockNow();
  const random = opts.random;
  return guarded("registration", registrationId, () =>
    db.transaction(
      (tx) => {
        const entry = tx
          .select({
            id: registrations.id,
            slug: registrations.slug,
            status: registrations.status,
            branch_id: registrations.branch_id,
            deleted_at: registrations.deleted_at,
          })
          .from(registrations)
          .where(eq(registrations.id, registrationId))
          .get();
        if (!entry) throw new DrawError("not_found", DRAW_MESSAGES.registrationNotFound);
        const existing = findDraw(tx, "registration", entry.id);
        if (existing) return resultOf(existing, false);
        if (entry.deleted_at) throw new DrawError("not_found", DRAW_MESSAGES.registrationNotFound);
        if (entry.status !== "confirmed" && entry.status !== "drawn") {
          throw new DrawError("not_confirmed", DRAW_MESSAGES.notConfirmed);
        }

        const draw = drawFromPools(tx, {
          thrill: 3,
          entryType: "registration",
          entryId: entry.id,
          slug: entry.slug,
          poolType: "registration_branch",
          branchId: entry.branch_id,
          at,
          random,
          baseTable: readBaseTable(tx, "third"),
        });
        tx.update(registrations)
          .set({ coupon_amount: draw.amount, status: "drawn", updated_at: at.toISOString() })
          .where(eq(registrations.id, entry.id))
          .run();
        return resultOf(draw, true);
      },
      { behavior: "immediate" },
    ),
  );
}

// ---------------------------------------------------------------- the audit screen

export type DrawAudit = { pools: PoolAudit[]; rolls: Roll[] };

export function parseDrawAudit(draw: Pick<Draw, "pools" | "rolls">): DrawAudit {
  return { pools: JSON.parse(draw.pools) as PoolAudit[], rolls: JSON.parse(draw.rolls) as Roll[] };
}
