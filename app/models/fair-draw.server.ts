/**
 * Fair draws (docs/decisions/0019-fair-draws.md): each Kathmandu day has a secret seed whose
 * SHA-256 commitment is written before the day's first draw; every roll of that day is
 * HMAC-SHA256(seed, its public input); every draw's record carries the hash of the one
 * before it. Once the day is over its seed is published, and anyone can recompute the
 * day with scripts/verify-draws.mjs (the same rules as scripts/fair-draws-core.mjs).
 *
 * The seed is read here only: by the draw (inside its transaction) and by `publishedDay`
 * for days that are over. No other query selects it.
 */
import crypto from "node:crypto";
import { and, asc, count as countRows, desc, eq, gt, isNotNull, lt, sql } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import { prepared } from "@db/prepared";
import type { Draw } from "@db/schema";
import { kathmanduDate, now as clockNow, shiftDate } from "~/utils/time";
import {
  recordText,
  rollInput,
  unitFromBytes,
  type FairDay,
  type FairRecord,
  type FairRecordBody,
} from "../../scripts/fair-draws-core.mjs";

export type { FairDay, FairRecord };

const { drawDays, draws } = schema;

export type Round = "second" | "third";
export const roundOf = (thrill: number): Round => (thrill === 2 ? "second" : "third");

// ---------------------------------------------------------------- the public reference

/** A draw's entry is named by its public reference (db/reference.ts), never by name or phone. */
import { entryReference, normaliseReference } from "@db/reference";

export { entryReference as drawReference, normaliseReference };

// ---------------------------------------------------------------- the day's seed

const hex = (bytes: Buffer) => bytes.toString("hex");
const commitmentOf = (seed: string) => hex(crypto.createHash("sha256").update(Buffer.from(seed, "hex")).digest());

const nextDate = (date: string) => shiftDate(date, 1);

/** The day's seed and commitment, made when first asked for (the row is never changed: a trigger refuses it). */
function daySeed(exec: Executor, date: string): { seed: string; commitment: string } {
  const made = seedOfDay(exec).get({ date });
  if (made) return made;
  const seed = hex(crypto.randomBytes(32));
  newDay(exec).run({ date, seed, commitment: commitmentOf(seed) });
  return seedOfDay(exec).get({ date })!;
}

const seedOfDay = prepared((q) =>
  q
    .select({ seed: drawDays.seed, commitment: drawDays.commitment })
    .from(drawDays)
    .where(eq(drawDays.date, sql.placeholder("date")))
    .prepare(),
);

// Another process may have made the day meanwhile: its row stands, this one is dropped.
const newDay = prepared((q) =>
  q
    .insert(drawDays)
    .values({ date: sql.placeholder("date"), seed: sql.placeholder("seed"), commitment: sql.placeholder("commitment") })
    .onConflictDoNothing()
    .prepare(),
);

/**
 * Commits today's and tomorrow's seeds, so a day's commitment is public before its first
 * draw (the landing of /fair-draws and every draw call it).
 */
export function commitAhead(exec: Executor = db, at: Date = clockNow()): void {
  const today = kathmanduDate(at);
  daySeed(exec, today);
  daySeed(exec, nextDate(today));
}

const hmacUnit = (seed: string, input: string) =>
  unitFromBytes(crypto.createHmac("sha256", Buffer.from(seed, "hex")).update(input).digest());

/**
 * The random source of one draw: the k-th value is HMAC-SHA256(day seed, "date|round|ref|k"),
 * unless the caller gives its own source (the statistics tests), whose values are recorded all
 * the same. `inputs` lists the public input of each value taken.
 */
export function drawSource(
  exec: Executor,
  date: string,
  round: Round,
  ref: string,
  override?: () => number,
): { next: () => number; inputs: string[] } {
  const { seed } = daySeed(exec, date);
  daySeed(exec, nextDate(date));
  const inputs: string[] = [];
  return {
    inputs,
    next: () => {
      const input = rollInput(date, round, ref, inputs.length);
      inputs.push(input);
      return override ? override() : hmacUnit(seed, input);
    },
  };
}

// ---------------------------------------------------------------- the chain

export type ChainFields = Pick<Draw, "seq" | "prev_hash" | "hash">;

const lastLinkOf = prepared((q) =>
  q
    .select({ seq: draws.seq, hash: draws.hash })
    .from(draws)
    .where(and(eq(draws.date, sql.placeholder("date")), isNotNull(draws.seq)))
    .orderBy(desc(draws.seq))
    .limit(1)
    .prepare(),
);

/** The next place in the day's chain and the hash of the record that takes it. Inside the draw's transaction. */
export function chainLink(exec: Executor, date: string, body: Omit<FairRecordBody, "seq" | "prev">): ChainFields {
  const last = lastLinkOf(exec).get({ date });
  const prev = last?.hash ?? daySeed(exec, date).commitment;
  const seq = (last?.seq ?? 0) + 1;
  const hash = crypto
    .createHash("sha256")
    .update(recordText({ ...body, seq, prev }))
    .digest("hex");
  return { seq, prev_hash: prev, hash };
}

type StoredPool = { id: number; amount: number; count: number; paid: number; probability: number };
type StoredRoll = { input?: string; value: number };

/** A stored draw as its public record. */
export function recordOf(d: Draw): FairRecord {
  return {
    seq: d.seq ?? 0,
    time: d.created_at,
    round: roundOf(d.thrill),
    ref: d.ref,
    branch: d.branch_id,
    pool_type: d.pool_type,
    pools: (JSON.parse(d.pools) as StoredPool[]).map(({ id, amount, count, paid, probability }) => ({
      id,
      amount,
      count,
      paid,
      probability,
    })),
    base_table: JSON.parse(d.base_table) as { amount: number; weight: number }[],
    rolls: (JSON.parse(d.rolls) as StoredRoll[]).map((r) => ({ input: r.input ?? "", value: r.value })),
    prize: { amount: d.amount, outcome: d.outcome, allocation_id: d.allocation_id },
    prev: d.prev_hash ?? "",
    hash: d.hash ?? "",
  };
}

// ---------------------------------------------------------------- what is published

export type DaySummary = {
  date: string;
  commitment: string;
  /** Published once the day is over; null before. */
  seed: string | null;
  draws: number;
  head: string | null;
  over: boolean;
};

const isOver = (date: string, at: Date) => date < kathmanduDate(at);

/** Every committed day, newest first: commitment, chain head, number of draws, and the seed of days that are over. */
export function listDays(at: Date = clockNow()): DaySummary[] {
  commitAhead(db, at);
  const today = kathmanduDate(at);
  const counts = db
    .select({ date: draws.date, n: countRows(), last: sql<number>`max(${draws.seq})` })
    .from(draws)
    .where(isNotNull(draws.seq))
    .groupBy(draws.date)
    .all();
  const byDate = new Map(counts.map((c) => [c.date, c]));
  const heads = new Map(
    counts.map((c) => [
      c.date,
      db
        .select({ hash: draws.hash })
        .from(draws)
        .where(and(eq(draws.date, c.date), eq(draws.seq, c.last)))
        .get()?.hash ?? null,
    ]),
  );
  const days = db
    .select({ date: drawDays.date, commitment: drawDays.commitment })
    .from(drawDays)
    .orderBy(desc(drawDays.date))
    .all();
  const past = new Map(
    db
      .select({ date: drawDays.date, seed: drawDays.seed })
      .from(drawDays)
      .where(lt(drawDays.date, today))
      .all()
      .map((d) => [d.date, d.seed]),
  );
  return days.map((d) => ({
    date: d.date,
    commitment: d.commitment,
    seed: past.get(d.date) ?? null,
    draws: byDate.get(d.date)?.n ?? 0,
    head: heads.get(d.date) ?? null,
    over: isOver(d.date, at),
  }));
}

/** A day's full record: the commitment, its draws in chain order, the head, and the seed once the day is over. Null for a day never committed. */
export function publishedDay(
  date: string,
  at: Date = clockNow(),
): (FairDay & { over: boolean; head: string | null }) | null {
  const day = db
    .select({ date: drawDays.date, commitment: drawDays.commitment })
    .from(drawDays)
    .where(eq(drawDays.date, date))
    .get();
  if (!day) return null;
  const over = isOver(date, at);
  const seed = over
    ? (db.select({ seed: drawDays.seed }).from(drawDays).where(eq(drawDays.date, date)).get()?.seed ?? null)
    : null;
  const records = db
    .select()
    .from(draws)
    .where(and(eq(draws.date, date), isNotNull(draws.seq)))
    .orderBy(asc(draws.seq))
    .all()
    .map(recordOf);
  return { date, commitment: day.commitment, seed, head: records.at(-1)?.hash ?? null, over, records };
}

/** The draws made for a public reference (a visitor's own), with their day and place in the chain. */
export function drawsByReference(typed: string): { date: string; record: FairRecord }[] {
  const ref = normaliseReference(typed);
  if (!ref) return [];
  return db
    .select()
    .from(draws)
    .where(and(eq(draws.ref, ref), isNotNull(draws.seq), gt(draws.seq, 0)))
    .orderBy(asc(draws.id))
    .all()
    .map((d) => ({ date: d.date, record: recordOf(d) }));
}
