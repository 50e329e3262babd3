/**
 * Schemes (allocations): the prize pools of the draw. Listing for the
 * DataTables screen, creating, deleting and re-counting with the rule that a
 * pool which has started paying out can no longer be deleted nor lowered below
 * what it has paid, and the payout preview (expected winners and cost).
 *
 * Every query takes the caller's scope and puts `poolScope` in its WHERE, so a
 * pool out of reach is simply not found; every change returns a Result and
 * writes its audit row in its own transaction.
 */
import { isCommitted } from "~/models/fair-draw.server";
import { and, asc, count as countRows, desc, eq, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import { db, schema, type Tx } from "@db/index";
import type { Allocation } from "@db/schema";
import { audit, diff } from "~/models/audit.server";
import { fail, FailureError, type Result } from "~/utils/failure";
import { ALLOCATION_TYPES, type AllocationType } from "~/utils/prize-constants";
import { orderPools, poolsOf, type PoolState } from "~/models/prize-draw.server";
import { baseTableMean, readBaseTable } from "~/models/prize-settings.server";
import { type Scope, type ScopedActor, branchCondition, isHeadOffice } from "~/models/scope.server";
import { transact } from "~/models/transaction.server";
import { ALLOCATION_MESSAGES, type AllocationCountInput, type AllocationInput } from "~/schemas/allocation";
import {
  likeContains,
  likePrefix,
  runTable,
  type TableResult,
  toTableParams,
  type PagingArgs,
} from "~/utils/datatable.server";

const { allocations, branches } = schema;

export const ALLOCATION_ERRORS = {
  notFound: "Scheme not found.",
  branchMissing: "Choose a branch from the list.",
  paid: (paid: number) =>
    `This scheme has already paid out ${paid} prize${paid === 1 ? "" : "s"} and can no longer be deleted.`,
  belowPaid: (paid: number) =>
    `The count cannot be lower than the ${paid} prize${paid === 1 ? "" : "s"} already paid out.`,
  committed: (date: string) =>
    `The pools of ${date} are committed and published for the fair draws: they can no longer change. Choose a later day.`,
} as const;

/** A committed day's pools never change (decision 19; a trigger refuses it too): the refusal, under the date. */
function refuseCommitted(tx: Tx, date: string, field = "date") {
  if (isCommitted(date, tx)) throw new FailureError(fail.field(field, ALLOCATION_ERRORS.committed(date)));
}

/**
 * The pools a scope reaches, inside every query of this module: head office
 * every pool; a branch user (should a role give one manage-allocation) only
 * its own branch's pools, never the public ones.
 */
export function poolScope(scope: Scope): SQL | undefined {
  return isHeadOffice(scope) ? undefined : eq(allocations.branch_id, scope.branchId);
}

// ---------------------------------------------------------------- list

export type AllocationFilters = {
  type?: AllocationType | null;
  branch_id?: number | null;
  /** Kathmandu date YYYY-MM-DD. */
  date?: string | null;
};

export type AllocationRow = Omit<Allocation, "created_by"> & {
  branch: { id: number; title: string } | null;
  remaining: number;
};

/** Allocations with branch title, paid and remaining; newest date first, then highest amount. */
export function listAllocations(
  scope: Scope,
  params: PagingArgs,
  filters: AllocationFilters = {},
): TableResult<AllocationRow> {
  return runTable<AllocationRow>(toTableParams(params), {
    orderable: {
      id: allocations.id,
      type: allocations.type,
      date: allocations.date,
      amount: allocations.amount,
      count: allocations.count,
      probability: allocations.probability,
      paid: allocations.paid,
      remaining: sql`${allocations.count} - ${allocations.paid}`,
      branch: branches.title,
      created_at: allocations.created_at,
    },
    defaultOrder: { column: "date", dir: "desc" },
    base: [poolScope(scope)],
    filters: [
      filters.type ? eq(allocations.type, filters.type) : undefined,
      filters.branch_id ? eq(allocations.branch_id, filters.branch_id) : undefined,
      filters.date ? eq(allocations.date, filters.date) : undefined,
    ],
    search: (term) => {
      const digits = term.replace(/[,\s]/g, "");
      return or(
        likeContains(branches.title, term),
        likePrefix(allocations.date, term),
        likeContains(allocations.type, term),
        /^\d+$/.test(digits) ? eq(allocations.amount, Number(digits)) : undefined,
      );
    },
    count: (where) =>
      db
        .select({ n: countRows() })
        .from(allocations)
        .leftJoin(branches, eq(branches.id, allocations.branch_id))
        .where(where)
        .get()?.n ?? 0,
    rows: (where, orderBy, limit, offset) =>
      db
        .select({ allocation: allocations, branch_title: branches.title })
        .from(allocations)
        .leftJoin(branches, eq(branches.id, allocations.branch_id))
        .where(where)
        .orderBy(...orderBy, desc(allocations.amount), asc(allocations.id))
        .limit(limit)
        .offset(offset)
        .all()
        .map(({ allocation, branch_title }) => {
          const { created_by: _createdBy, ...row } = allocation;
          return {
            ...row,
            branch: row.branch_id !== null ? { id: row.branch_id, title: branch_title ?? "" } : null,
            remaining: row.count - row.paid,
          };
        }),
  });
}

/** One pool the scope reaches, or null. */
export function getAllocation(scope: Scope, id: number): Allocation | null {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return (
    db
      .select()
      .from(allocations)
      .where(and(eq(allocations.id, id), poolScope(scope)))
      .get() ?? null
  );
}

// ---------------------------------------------------------------- changes

const ENTITY = "allocation";

/** The pool, read again inside a transaction, within the actor's reach; not found otherwise. */
function reachable(tx: Tx, scope: Scope, id: number): Allocation {
  const row = Number.isSafeInteger(id)
    ? tx
        .select()
        .from(allocations)
        .where(and(eq(allocations.id, id), poolScope(scope)))
        .get()
    : undefined;
  if (!row) throw new FailureError(fail.notFound(ALLOCATION_ERRORS.notFound));
  return row;
}

/**
 * Creates a pool from values parsed by allocationSchema. The branch must be an
 * active branch the actor reaches (a branch user only its own).
 */
export function createAllocation(actor: ScopedActor, value: AllocationInput): Result<{ allocation: Allocation }> {
  return transact((tx) => {
    if (value.branch_id !== undefined) {
      const branch = tx
        .select({ id: branches.id })
        .from(branches)
        .where(
          and(
            eq(branches.id, value.branch_id),
            isNull(branches.deleted_at),
            isNull(branches.closed_at),
            branchCondition(branches.id, actor.scope),
          ),
        )
        .get();
      if (!branch) throw new FailureError(fail.field("branch_id", ALLOCATION_ERRORS.branchMissing));
    } else if (!isHeadOffice(actor.scope)) {
      // A branch user cannot make a public pool.
      throw new FailureError(fail.field("branch_id", ALLOCATION_MESSAGES.branchRequired));
    }
    refuseCommitted(tx, value.date);
    const allocation = tx
      .insert(allocations)
      .values({
        type: value.type,
        branch_id: value.branch_id ?? null,
        date: value.date,
        amount: value.amount,
        count: value.count,
        probability: value.probability,
        created_by: actor.id,
      })
      .returning()
      .get();
    audit(tx, actor, {
      action: "allocation.create",
      entityType: ENTITY,
      entityId: allocation.id,
      changes: diff(null, allocation),
    });
    return { ok: true as const, allocation };
  });
}

/** Deletes a pool the actor reaches that has paid nothing yet; a conflict once it has. */
export function deleteAllocation(actor: ScopedActor, id: number): Result<{ allocation: Allocation }> {
  return transact((tx) => {
    const row = reachable(tx, actor.scope, id);
    if (row.paid > 0) throw new FailureError(fail.conflict(ALLOCATION_ERRORS.paid(row.paid)));
    if (isCommitted(row.date, tx)) throw new FailureError(fail.conflict(ALLOCATION_ERRORS.committed(row.date)));
    tx.delete(allocations)
      .where(and(eq(allocations.id, row.id), eq(allocations.paid, 0)))
      .run();
    audit(tx, actor, { action: "allocation.delete", entityType: ENTITY, entityId: row.id, changes: diff(row, null) });
    return { ok: true as const, allocation: row };
  });
}

/** Sets the count (1 to 5) of a pool the actor reaches, never below what it has already paid. */
export function updateAllocationCount(
  actor: ScopedActor,
  id: number,
  value: AllocationCountInput,
): Result<{ allocation: Allocation }> {
  return transact((tx) => {
    const row = reachable(tx, actor.scope, id);
    refuseCommitted(tx, row.date, "count");
    if (value.count < row.paid) throw new FailureError(fail.field("count", ALLOCATION_ERRORS.belowPaid(row.paid)));
    const allocation = tx
      .update(allocations)
      .set({ count: value.count })
      .where(and(eq(allocations.id, row.id), lte(allocations.paid, value.count)))
      .returning()
      .get()!;
    audit(tx, actor, {
      action: "allocation.count",
      entityType: ENTITY,
      entityId: row.id,
      changes: diff(row, allocation),
    });
    return { ok: true as const, allocation };
  });
}

// ---------------------------------------------------------------- payout preview

/**
 * Exact expected wins per pool for `entries` further draws against pools in
 * draw order (computed, not simulated).
 *
 * An entry reaches pool i only when no earlier pool paid it, and a pool's own
 * rolls do not depend on the others, so only the NUMBER of entries reaching a
 * pool matters: if A entries reach pool i (r prizes left, probability p), it
 * pays W = min(r, Binomial(A, p)) of them and passes A - W on. A equals
 * `entries` minus the wins of the earlier pools, so the dynamic programme keeps
 * the distribution of the wins so far (at most the sum of the remaining counts,
 * 5 per pool) and is exact.
 */
export function expectedPoolWins(
  pools: readonly PoolState[],
  entries: number,
): { pools: { pool: PoolState; expectedWinners: number }[]; expectedFallbackEntries: number } {
  const ordered = orderPools(pools);
  let dist = [1]; // dist[d] = P(d prizes paid by the pools so far)
  const out: { pool: PoolState; expectedWinners: number }[] = [];
  for (const pool of ordered) {
    const r = pool.count - pool.paid;
    const p = Math.min(1, Math.max(0, pool.probability / 100));
    const next = new Array<number>(dist.length + r).fill(0);
    let expected = 0;
    dist.forEach((q, d) => {
      if (q === 0) return;
      const wins = cappedBinomial(entries - d, p, r);
      wins.forEach((pw, w) => {
        next[d + w] += q * pw;
        expected += q * pw * w;
      });
    });
    dist = next;
    out.push({ pool, expectedWinners: expected });
  }
  const expectedFallbackEntries = dist.reduce((s, q, d) => s + q * Math.max(0, entries - d), 0);
  return { pools: out, expectedFallbackEntries };
}

/** Distribution of min(cap, Binomial(n, p)) as an array indexed 0..cap. */
function cappedBinomial(n: number, p: number, cap: number): number[] {
  const out = new Array<number>(cap + 1).fill(0);
  if (n <= 0) {
    out[0] = 1;
    return out;
  }
  if (p <= 0) {
    out[0] = 1;
    return out;
  }
  if (p >= 1) {
    out[Math.min(cap, n)] = 1;
    return out;
  }
  let below = 0;
  let logChoose = 0; // log C(n, w)
  for (let w = 0; w < cap; w++) {
    if (w > 0) logChoose += Math.log(n - w + 1) - Math.log(w);
    const pw = w > n ? 0 : Math.exp(logChoose + w * Math.log(p) + (n - w) * Math.log1p(-p));
    out[w] = pw;
    below += pw;
  }
  out[cap] = Math.max(0, 1 - below);
  return out;
}

export type PreviewPool = PoolState & { remaining: number; expectedWinners: number; expectedCost: number };

export type PreviewAmount = {
  amount: number;
  pools: number;
  remaining: number;
  expectedWinners: number;
  expectedCost: number;
};

export type PreviewType = {
  type: AllocationType;
  branch_id: number | null;
  pools: PreviewPool[];
  byAmount: PreviewAmount[];
  expectedPoolWinners: number;
  expectedPoolCost: number;
  /** Entries expected to get the fallback, the base table's mean amount and their expected cost. */
  expectedFallbackEntries: number;
  fallbackMean: number;
  expectedFallbackCost: number;
  expectedTotalCost: number;
};

export type PayoutPreview = {
  date: string;
  branchId: number | null;
  entries: number;
  types: PreviewType[];
  expectedTotalCost: number;
};

export const MAX_PREVIEW_ENTRIES = 1_000_000;

/**
 * For `entries` further draws of each pool type on `date`: the expected winners
 * and cost of every pool (remaining prizes only), per amount, and the expected
 * fallback cost from the base table. Head office sees the public type, and the
 * two branch types when a branch is given; a branch user sees its own
 * branch's two types only, whatever branch is asked for.
 */
export function payoutPreview(
  scope: Scope,
  args: { date: string; branchId: number | null; entries: number },
): PayoutPreview {
  const entries = Number.isFinite(args.entries)
    ? Math.max(0, Math.min(MAX_PREVIEW_ENTRIES, Math.floor(args.entries)))
    : 0;
  const branchId = scope.branchId ?? args.branchId;
  const types = ALLOCATION_TYPES.filter((t) =>
    t === "preregistration_public" ? isHeadOffice(scope) : branchId !== null,
  );
  const result: PreviewType[] = types.map((type) => {
    const poolBranch = type === "preregistration_public" ? null : branchId;
    const pools = poolsOf(db, type, poolBranch, args.date, { withPaidOut: true });
    const expectation = expectedPoolWins(pools, entries);
    const previewPools: PreviewPool[] = expectation.pools.map(({ pool, expectedWinners }) => ({
      ...pool,
      remaining: pool.count - pool.paid,
      expectedWinners,
      expectedCost: expectedWinners * pool.amount,
    }));
    const byAmount = new Map<number, PreviewAmount>();
    for (const p of previewPools) {
      const a = byAmount.get(p.amount) ?? {
        amount: p.amount,
        pools: 0,
        remaining: 0,
        expectedWinners: 0,
        expectedCost: 0,
      };
      a.pools += 1;
      a.remaining += p.remaining;
      a.expectedWinners += p.expectedWinners;
      a.expectedCost += p.expectedCost;
      byAmount.set(p.amount, a);
    }
    const fallbackMean = baseTableMean(readBaseTable(db, type === "registration_branch" ? "third" : "second"));
    const expectedPoolWinners = previewPools.reduce((s, p) => s + p.expectedWinners, 0);
    const expectedPoolCost = previewPools.reduce((s, p) => s + p.expectedCost, 0);
    const expectedFallbackCost = expectation.expectedFallbackEntries * fallbackMean;
    return {
      type,
      branch_id: poolBranch,
      pools: previewPools,
      byAmount: [...byAmount.values()],
      expectedPoolWinners,
      expectedPoolCost,
      expectedFallbackEntries: expectation.expectedFallbackEntries,
      fallbackMean,
      expectedFallbackCost,
      expectedTotalCost: expectedPoolCost + expectedFallbackCost,
    };
  });
  return {
    date: args.date,
    branchId,
    entries,
    types: result,
    expectedTotalCost: result.reduce((s, t) => s + t.expectedTotalCost, 0),
  };
}
