/**
 * The prize draw's rules without the database (decision 6): the pools in draw order, one roll per
 * pool (a win below probability/100), the weighted base table. The draw (prize-draw.server.ts), the
 * statistics test and the payout preview use them; scripts/fair-draws-core.mjs states them again
 * for the checkers.
 */
import { randomUnit } from "~/utils/crypto.server";

export type RandomSource = () => number;

/** A pool as the draw sees it. */
export type PoolState = { id: number; amount: number; count: number; paid: number; probability: number };

/** A pool in the audit log: its state before the draw. */
export type PoolAudit = PoolState & { remaining: number };

export type PoolRoll = {
  stage: "pool";
  /** The roll's public input (a beacon draw: the roll is HMAC-SHA256 of the round's randomness and this). */
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
