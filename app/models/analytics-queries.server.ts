/**
 * The queries behind head office's analytics (analytics.server.ts says what
 * each figure counts, its scope and its cost): the Kathmandu day of a row,
 * the range and the previous period, reading in slices of days with the event
 * loop free between them, and one grouped scan per table and slice.
 */
import { and, asc, count, eq, gte, inArray, isNull, lt, lte, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { db, schema } from "@db/index";
import { type AllocationType, ALLOCATION_TYPES } from "~/utils/prize-constants";
import { branchCondition, type Scope } from "~/models/scope.server";
import { preregistrationOwnerScope } from "~/models/preregistration-reach.server";
import { daysBetween, MAX_RANGE_DAYS, type AnalyticsRangeInput } from "~/schemas/analytics";
import { type PaymentMode } from "~/schemas/registration";
import { kathmanduDate, kathmanduDayRange, now as clockNow, shiftDate } from "~/utils/time";
import { type DailyRow, type DayRange } from "./analytics";

const { preregistrations: P, registrations: R, testRides: T, draws: D, allocations: A } = schema;

// ---------------------------------------------------------------- helpers

/** The Kathmandu day of a stored UTC instant, in SQL. */
const kathmanduDay = (column: SQLiteColumn) => sql<string>`date(${column}, '+5 hours', '+45 minutes')`;

export const num = (v: unknown) => Number(v ?? 0);

/** The branch that owns a pre-registration: where it was made, else its nearest showroom. */
const preOwner = sql<number | null>`coalesce(${P.branch_id}, ${P.nearest_branch_id})`;

/**
 * A pre-registration bought: purchased, with its registration not deleted (one
 * probe of the unique preregistration_id index). Spelled out with its own alias:
 * drizzle leaves the columns of a one-table query unqualified, and a bare "id"
 * inside the subquery would be the registration's.
 */
const livePurchase = sql<number>`coalesce(sum(case when ${P.purchased} = 1 and exists (select 1 from "registrations" as "bought" where "bought"."preregistration_id" = "preregistrations"."id" and "bought"."deleted_at" is null) then 1 else 0 end), 0)`;

/** The UTC instants [start, end) of a range of Kathmandu days. */
function bounds(range: { from: string; to: string }) {
  return { start: kathmanduDayRange(range.from).start, end: kathmanduDayRange(range.to).end };
}

export function firstCreated(table: typeof P | typeof R | typeof T, where: (SQL | undefined)[]): string | null {
  const row = db
    .select({ at: table.created_at })
    .from(table)
    .where(and(isNull(table.deleted_at), ...where))
    .orderBy(asc(table.created_at))
    .limit(1)
    .get();
  return row?.at ?? null;
}

/** The Kathmandu day of the first record the scope sees (pre-registration, registration or test ride), or null. */
function campaignStart(scope: Scope): string | null {
  const firsts = [
    firstCreated(P, [preregistrationOwnerScope(scope)]),
    firstCreated(R, [branchCondition(R.branch_id, scope)]),
    firstCreated(T, [branchCondition(T.branch_id, scope)]),
  ].filter((x): x is string => !!x);
  if (!firsts.length) return null;
  return kathmanduDate(firsts.sort()[0]);
}

/** The days before a range, as many as it has. */
export function previousRange(range: DayRange): DayRange {
  return { from: shiftDate(range.from, -range.days), to: shiftDate(range.from, -1), days: range.days };
}

/**
 * The range to show: the days asked for, any missing end filled in (from: the
 * campaign's first day; to: today, or `from` when that is later). Without
 * dates: the campaign so far, its last MAX_RANGE_DAYS days at most.
 */
export function resolveRange(
  scope: Scope,
  input: AnalyticsRangeInput,
  at: Date = clockNow(),
): { range: DayRange; isDefault: boolean } {
  const today = kathmanduDate(at);
  const isDefault = !input.from && !input.to;
  const to = input.to ?? (input.from && input.from > today ? input.from : today);
  let from = input.from ?? campaignStart(scope) ?? to;
  if (from > to) from = to;
  if (daysBetween(from, to) > MAX_RANGE_DAYS) from = shiftDate(to, -(MAX_RANGE_DAYS - 1));
  return { range: { from, to, days: daysBetween(from, to) }, isDefault };
}

// ---------------------------------------------------------------- reading in slices

/** Days per slice: each query reads at most this many days at once, then the event loop runs. */
export const SLICE_DAYS = 7;

/** Lets other requests and timers run between two slices. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A range of days cut into consecutive slices of at most `size` days. */
export function slices(range: { from: string; to: string }, size: number): { from: string; to: string }[] {
  const out: { from: string; to: string }[] = [];
  for (let from = range.from; from <= range.to; from = shiftDate(from, size)) {
    const to = shiftDate(from, size - 1);
    out.push({ from, to: to < range.to ? to : range.to });
  }
  return out;
}

/**
 * Runs a grouped query slice by slice (yielding between slices) and adds up the
 * `sums` of the rows that fall in the same group (the same values in every
 * other field) across slices.
 */
export async function sliced<Row extends object>(
  range: { from: string; to: string },
  size: number,
  query: (slice: { from: string; to: string }) => Row[],
  sums: readonly (keyof Row & string)[],
): Promise<Row[]> {
  const merged = new Map<string, Row>();
  for (const slice of slices(range, size)) {
    for (const row of query(slice)) {
      const key = JSON.stringify(Object.entries(row).filter(([k]) => !sums.includes(k as keyof Row & string)));
      const seen = merged.get(key) as Record<string, unknown> | undefined;
      if (!seen) merged.set(key, { ...row });
      else for (const k of sums) seen[k] = num(seen[k]) + num((row as Record<string, unknown>)[k]);
    }
    await yieldToLoop();
  }
  return [...merged.values()];
}

// ---------------------------------------------------------------- queries

type Slice = { from: string; to: string };
type Counted = { day: string; n: number };

/** Pre-registrations made per Kathmandu day. */
function preregistrationsByDay(scope: Scope, slice: Slice): Counted[] {
  const { start, end } = bounds(slice);
  const day = kathmanduDay(P.created_at);
  return db
    .select({ day, n: count() })
    .from(P)
    .where(and(gte(P.created_at, start), lt(P.created_at, end), isNull(P.deleted_at), preregistrationOwnerScope(scope)))
    .groupBy(day)
    .all();
}

export type DrawGroup = { pool_type: AllocationType; outcome: "pool" | "fallback" | "none"; n: number; amount: number };
type DayDrawGroup = DrawGroup & { day: string };
type VerifiedGroup = {
  day: string;
  pool_type: AllocationType | null;
  outcome: DrawGroup["outcome"] | null;
  n: number;
  shared: number;
  amount: number;
};

/**
 * Pre-registrations verified per Kathmandu day of `range`, among those made in
 * `made` (a verification never comes before its record, so the slices of
 * `made` run from the first record to the range's end), with how many were
 * shared (first thrill) and their second-thrill draw (one probe of the draws'
 * unique entry index), by pool type and outcome.
 */
function verificationsByDay(scope: Scope, range: { from: string; to: string }, made: Slice): VerifiedGroup[] {
  const { start, end } = bounds(range);
  const madeIn = bounds(made);
  const day = kathmanduDay(P.verified_at);
  return db
    .select({
      day,
      pool_type: D.pool_type,
      outcome: D.outcome,
      n: count(),
      shared: sql<number>`coalesce(sum(${P.shared}), 0)`,
      amount: sql<number>`coalesce(sum(${D.amount}), 0)`,
    })
    .from(P)
    .leftJoin(D, and(eq(D.entry_type, "preregistration"), eq(D.entry_id, P.id)))
    .where(
      and(
        gte(P.created_at, madeIn.start),
        lt(P.created_at, madeIn.end),
        gte(P.verified_at, start),
        lt(P.verified_at, end),
        isNull(P.deleted_at),
        preregistrationOwnerScope(scope),
      ),
    )
    .groupBy(day, D.pool_type, D.outcome)
    .all();
}

function registrationsByDay(scope: Scope, slice: Slice): Counted[] {
  const { start, end } = bounds(slice);
  const day = kathmanduDay(R.created_at);
  return db
    .select({ day, n: count() })
    .from(R)
    .where(
      and(gte(R.created_at, start), lt(R.created_at, end), isNull(R.deleted_at), branchCondition(R.branch_id, scope)),
    )
    .groupBy(day)
    .all();
}

function testRidesByDay(scope: Scope, slice: Slice): Counted[] {
  const { start, end } = bounds(slice);
  const day = kathmanduDay(T.created_at);
  return db
    .select({ day, n: count() })
    .from(T)
    .where(
      and(gte(T.created_at, start), lt(T.created_at, end), isNull(T.deleted_at), branchCondition(T.branch_id, scope)),
    )
    .groupBy(day)
    .all();
}

/**
 * Coupon draws (third thrill) dated in the slice, of registrations not deleted
 * and in scope, by day, pool type and outcome. `+entry_type` keeps SQLite on
 * the date index (an equality on entry_type alone would walk every draw of that type).
 */
function couponDraws(scope: Scope, slice: Slice): DayDrawGroup[] {
  return db
    .select({
      day: D.date,
      pool_type: D.pool_type,
      outcome: D.outcome,
      n: count(),
      amount: sql<number>`coalesce(sum(${D.amount}), 0)`,
    })
    .from(D)
    .innerJoin(R, eq(R.id, D.entry_id))
    .where(
      and(
        gte(D.date, slice.from),
        lte(D.date, slice.to),
        sql`+${D.entry_type} = ${"registration"}`,
        isNull(R.deleted_at),
        branchCondition(R.branch_id, scope),
      ),
    )
    .groupBy(D.date, D.pool_type, D.outcome)
    .all();
}

/** Σ count × amount (and Σ count) of the pools dated in the range, per type; a branch sees its own pools. */
export function allowedByType(scope: Scope, range: { from: string; to: string }) {
  return db
    .select({
      type: A.type,
      amount: sql<number>`coalesce(sum(${A.count} * ${A.amount}), 0)`,
      prizes: sql<number>`coalesce(sum(${A.count}), 0)`,
    })
    .from(A)
    .where(
      and(
        inArray(A.type, [...ALLOCATION_TYPES]),
        gte(A.date, range.from),
        lte(A.date, range.to),
        branchCondition(A.branch_id, scope),
      ),
    )
    .groupBy(A.type)
    .all();
}

type PreCubeRow = {
  branch_id: number | null;
  bike_model_id: number | null;
  source: string | null;
  n: number;
  verified: number;
  purchased: number;
};

/** Pre-registrations made in the slice by owner branch, model and source, with how many were verified and bought. */
export function preregistrationCube(scope: Scope, slice: Slice): PreCubeRow[] {
  const { start, end } = bounds(slice);
  return db
    .select({
      branch_id: preOwner,
      bike_model_id: P.bike_model_id,
      source: P.source,
      n: count(),
      verified: sql<number>`coalesce(sum(${P.is_verified}), 0)`,
      purchased: livePurchase,
    })
    .from(P)
    .where(and(gte(P.created_at, start), lt(P.created_at, end), isNull(P.deleted_at), preregistrationOwnerScope(scope)))
    .groupBy(preOwner, P.bike_model_id, P.source)
    .all();
}

type RegCubeRow = { branch_id: number; bike_model_id: number; payment_mode: PaymentMode; n: number };

export function registrationCube(scope: Scope, slice: Slice): RegCubeRow[] {
  const { start, end } = bounds(slice);
  return db
    .select({ branch_id: R.branch_id, bike_model_id: R.bike_model_id, payment_mode: R.payment_mode, n: count() })
    .from(R)
    .where(
      and(gte(R.created_at, start), lt(R.created_at, end), isNull(R.deleted_at), branchCondition(R.branch_id, scope)),
    )
    .groupBy(R.branch_id, R.bike_model_id, R.payment_mode)
    .all();
}

type RideCubeRow = { branch_id: number; bike_model_id: number; n: number };

export function testRideCube(scope: Scope, slice: Slice): RideCubeRow[] {
  const { start, end } = bounds(slice);
  return db
    .select({ branch_id: T.branch_id, bike_model_id: T.bike_model_id, n: count() })
    .from(T)
    .where(
      and(gte(T.created_at, start), lt(T.created_at, end), isNull(T.deleted_at), branchCondition(T.branch_id, scope)),
    )
    .groupBy(T.branch_id, T.bike_model_id)
    .all();
}

export type DayFigures = Omit<DailyRow, "date"> & { shared: number; second: DrawGroup[]; third: DrawGroup[] };

/**
 * Every figure that is counted by day, for each day of `range`: one pass over
 * each table (pre-registrations twice: by the day made, by the day verified).
 * The page asks for its range and the previous period together, so each row
 * is read once.
 */
export async function figuresByDay(scope: Scope, range: DayRange, firstMade: string | null, size: number) {
  const out = new Map<string, DayFigures>();
  for (let i = 0; i < range.days; i++)
    out.set(shiftDate(range.from, i), {
      preregistrations: 0,
      verifications: 0,
      registrations: 0,
      test_rides: 0,
      shared: 0,
      second: [],
      third: [],
    });
  const day = (d: string) => out.get(d);
  for (const r of await sliced(range, size, (s) => preregistrationsByDay(scope, s), ["n"]))
    if (day(r.day)) day(r.day)!.preregistrations = r.n;
  for (const r of await sliced(range, size, (s) => registrationsByDay(scope, s), ["n"]))
    if (day(r.day)) day(r.day)!.registrations = r.n;
  for (const r of await sliced(range, size, (s) => testRidesByDay(scope, s), ["n"]))
    if (day(r.day)) day(r.day)!.test_rides = r.n;
  if (firstMade && firstMade <= range.to) {
    const verified = await sliced({ from: firstMade, to: range.to }, size, (s) => verificationsByDay(scope, range, s), [
      "n",
      "shared",
      "amount",
    ]);
    for (const r of verified) {
      const d = day(r.day);
      if (!d) continue;
      d.verifications += r.n;
      d.shared += num(r.shared);
      if (r.pool_type && r.outcome)
        d.second.push({ pool_type: r.pool_type, outcome: r.outcome, n: r.n, amount: num(r.amount) });
    }
  }
  for (const r of await sliced(range, size, (s) => couponDraws(scope, s), ["n", "amount"]))
    day(r.day)?.third.push({ pool_type: r.pool_type, outcome: r.outcome, n: r.n, amount: num(r.amount) });
  return out;
}

export const sumAmount = (groups: DrawGroup[]) => groups.reduce((s, g) => s + num(g.amount), 0);
export const sumCount = (groups: DrawGroup[]) => groups.reduce((s, g) => s + g.n, 0);

/** Adds to `key`'s row of a map, making the row with `make` first. */
export function addTo<K, V>(map: Map<K, V>, key: K, make: () => V, add: (row: V) => void) {
  let row = map.get(key);
  if (!row) {
    row = make();
    map.set(key, row);
  }
  add(row);
}

export const byFigures =
  <Row extends { title: string }>(...keys: (keyof Row)[]) =>
  (a: Row, b: Row) => {
    for (const k of keys) {
      const d = num(b[k]) - num(a[k]);
      if (d) return d;
    }
    return a.title.localeCompare(b.title);
  };
