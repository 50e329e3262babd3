/**
 * Head office's picture of the campaign (/admin/analytics, GET /api/v1/analytics)
 * for a range of Asia/Kathmandu days: the daily series, the funnel, the prize
 * money against what the schemes allow, the breakdowns by branch, bike model,
 * source and payment mode, and the change against the previous period of the
 * same length. Rules: docs/decisions/0014-analytics.md.
 *
 * What each figure counts (deleted records never count):
 * - pre-registrations, registrations, test rides: made (created_at) on the day;
 * - verifications: pre-registrations verified (verified_at) on the day;
 * - the funnel and the per-branch and per-source "verified"/"purchased": of the
 *   pre-registrations made in the range, those verified, and those bought
 *   (purchased with a registration that is not deleted);
 * - prize money: first thrill Rs 1000 for each pre-registration verified on the
 *   day that was shared; second thrill the draw of each pre-registration
 *   verified on the day (drawn in the verification's transaction); third
 *   thrill the coupon draws of the day (the draw's Kathmandu date); split by
 *   pool type and outcome (a pool's prize, the fallback table, nothing);
 *   allowed = Σ count × amount of the pools dated in the range.
 *
 * Scope: a branch user's figures cover its branch's registrations and test
 * rides, and the pre-registrations the branch owns: made at it, or made on the
 * public site naming it as nearest showroom. Counter grants (decision 5) give
 * access to a record, not its ownership, so every record counts for one branch
 * and the branches add up to head office's totals. Pools: the branch's own.
 *
 * Cost: every query of a big table takes an indexed range of its created_at
 * (coupon draws: their date, pools: their date) and groups by the Kathmandu
 * day after, `date(created_at, '+5 hours', '+45 minutes')` (Kathmandu has had
 * no daylight saving since 1986). The breakdowns of a table come from one scan
 * grouped by (branch, model, source or mode) and folded here. Queries run in
 * slices of days with the event loop free between slices.
 */
import { and, asc, count, eq, gte, inArray, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { db, schema } from "@db/index";
import { percentChange } from "~/models/dashboard.server";
import { ALLOCATION_TYPE_LABELS, ALLOCATION_TYPES, FIRST_THRILL, type AllocationType } from "~/models/prize-constants";
import { branchCondition, type Scope, isHeadOffice } from "~/models/scope.server";
import { daysBetween, MAX_RANGE_DAYS, type AnalyticsRangeInput } from "~/schemas/analytics";
import { SOURCE_OPTIONS } from "~/schemas/preregistration";
import { PAYMENT_MODE_LABELS, PAYMENT_MODES, type PaymentMode } from "~/schemas/registration";
import { kathmanduDate, kathmanduDayRange, now as clockNow, shiftDate } from "~/utils/time";
import {
  rate,
  type Analytics,
  type BranchRow,
  type Change,
  type DailyRow,
  type DayRange,
  type Funnel,
  type ModelRow,
  type PaymentRow,
  type PrizeTypeRow,
  type SourceRow,
  type ThrillRow,
} from "./analytics";

const { preregistrations: P, registrations: R, testRides: T, draws: D, allocations: A, branches, bikeModels } = schema;

// ---------------------------------------------------------------- helpers

/** The Kathmandu day of a stored UTC instant, in SQL. */
const kathmanduDay = (column: SQLiteColumn) => sql<string>`date(${column}, '+5 hours', '+45 minutes')`;

const num = (v: unknown) => Number(v ?? 0);

/**
 * The pre-registrations a branch owns: made at it, or public ones naming it as
 * nearest showroom. Two indexable terms ((branch_id, created_at) and
 * (nearest_branch_id, created_at)), so SQLite answers the OR with two range scans.
 */
function preregistrationOwnerScope(scope: Scope): SQL | undefined {
  if (isHeadOffice(scope)) return undefined;
  return or(eq(P.branch_id, scope.branchId), and(isNull(P.branch_id), eq(P.nearest_branch_id, scope.branchId)));
}

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

function firstCreated(table: typeof P | typeof R | typeof T, where: (SQL | undefined)[]): string | null {
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
const SLICE_DAYS = 7;

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
async function sliced<Row extends object>(
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

type DrawGroup = { pool_type: AllocationType; outcome: "pool" | "fallback" | "none"; n: number; amount: number };
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
function allowedByType(scope: Scope, range: { from: string; to: string }) {
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
function preregistrationCube(scope: Scope, slice: Slice): PreCubeRow[] {
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

function registrationCube(scope: Scope, slice: Slice): RegCubeRow[] {
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

function testRideCube(scope: Scope, slice: Slice): RideCubeRow[] {
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

type DayFigures = Omit<DailyRow, "date"> & { shared: number; second: DrawGroup[]; third: DrawGroup[] };

/**
 * Every figure that is counted by day, for each day of `range`: one pass over
 * each table (pre-registrations twice: by the day made, by the day verified).
 * The page asks for its range and the previous period together, so each row
 * is read once.
 */
async function figuresByDay(scope: Scope, range: DayRange, firstMade: string | null, size: number) {
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

const sumAmount = (groups: DrawGroup[]) => groups.reduce((s, g) => s + num(g.amount), 0);
const sumCount = (groups: DrawGroup[]) => groups.reduce((s, g) => s + g.n, 0);

/** Adds to `key`'s row of a map, making the row with `make` first. */
function addTo<K, V>(map: Map<K, V>, key: K, make: () => V, add: (row: V) => void) {
  let row = map.get(key);
  if (!row) {
    row = make();
    map.set(key, row);
  }
  add(row);
}

const byFigures =
  <Row extends { title: string }>(...keys: (keyof Row)[]) =>
  (a: Row, b: Row) => {
    for (const k of keys) {
      const d = num(b[k]) - num(a[k]);
      if (d) return d;
    }
    return a.title.localeCompare(b.title);
  };

// ---------------------------------------------------------------- the page

export type AnalyticsOptions = {
  /** The instant "today" is taken from (default: now). */
  at?: Date;
  /** Days read per query before the event loop runs again (default SLICE_DAYS). */
  sliceDays?: number;
};

/**
 * Every figure of the page for a scope and a range (missing dates filled in:
 * see resolveRange). Reads slice by slice and yields between slices, so a
 * campaign of half a million records never holds the server for long.
 */
export async function campaignAnalytics(
  scope: Scope,
  input: AnalyticsRangeInput = {},
  { at = clockNow(), sliceDays = SLICE_DAYS }: AnalyticsOptions = {},
): Promise<Analytics> {
  const { range, isDefault } = resolveRange(scope, input, at);
  const previous = previousRange(range);
  const firstMade = firstCreated(P, [preregistrationOwnerScope(scope)]);
  const firstDay = firstMade ? kathmanduDate(firstMade) : null;

  // The range and the previous period are adjacent and as long: one read of both.
  const both = await figuresByDay(
    scope,
    { from: previous.from, to: range.to, days: previous.days + range.days },
    firstDay,
    sliceDays,
  );
  const period = (r: DayRange) => [...both].filter(([date]) => date >= r.from && date <= r.to).map(([, f]) => f);
  const current = period(range);
  const before = period(previous);
  const daily: DailyRow[] = [...both]
    .filter(([date]) => date >= range.from)
    .map(([date, f]) => ({
      date,
      preregistrations: f.preregistrations,
      verifications: f.verifications,
      registrations: f.registrations,
      test_rides: f.test_rides,
    }));
  const total = (
    days: DayFigures[],
    key: "preregistrations" | "verifications" | "registrations" | "test_rides" | "shared",
  ) => days.reduce((s, d) => s + d[key], 0);
  const groups = (days: DayFigures[], thrill: "second" | "third") => days.flatMap((d) => d[thrill]);

  // Prize money.
  const draws = { second: groups(current, "second"), third: groups(current, "third") };
  const won = (list: DrawGroup[]) => list.filter((g) => g.outcome !== "none");
  const shared = total(current, "shared");
  const byThrill: ThrillRow[] = [
    { thrill: "first", label: "First thrill (shared)", count: shared, amount: shared * FIRST_THRILL },
    {
      thrill: "second",
      label: "Second thrill (pre-registration prize)",
      count: sumCount(won(draws.second)),
      amount: sumAmount(draws.second),
    },
    {
      thrill: "third",
      label: "Third thrill (coupon)",
      count: sumCount(won(draws.third)),
      amount: sumAmount(draws.third),
    },
  ];
  const prizeTotal = byThrill.reduce((s, r) => s + r.amount, 0);
  const prizeBefore =
    total(before, "shared") * FIRST_THRILL + sumAmount(groups(before, "second")) + sumAmount(groups(before, "third"));

  const allowed = new Map(allowedByType(scope, range).map((r) => [r.type, r]));
  const allGroups = [...draws.second, ...draws.third];
  const byType: PrizeTypeRow[] = ALLOCATION_TYPES.map((type) => {
    const ofType = allGroups.filter((g) => g.pool_type === type);
    const of = (outcome: DrawGroup["outcome"]) => ofType.filter((g) => g.outcome === outcome);
    const mine = isHeadOffice(scope) || type !== "preregistration_public";
    return {
      type,
      label: ALLOCATION_TYPE_LABELS[type],
      allowed: mine ? num(allowed.get(type)?.amount) : null,
      allowed_count: mine ? num(allowed.get(type)?.prizes) : null,
      pool_count: sumCount(of("pool")),
      pool_amount: sumAmount(of("pool")),
      fallback_count: sumCount(of("fallback")),
      fallback_amount: sumAmount(of("fallback")),
      none_count: sumCount(of("none")),
    };
  });

  // Breakdowns.
  const preCube = await sliced(range, sliceDays, (s) => preregistrationCube(scope, s), ["n", "verified", "purchased"]);
  const regCube = await sliced(range, sliceDays, (s) => registrationCube(scope, s), ["n"]);
  const rideCube = await sliced(range, sliceDays, (s) => testRideCube(scope, s), ["n"]);

  const funnelCounts = preCube.reduce(
    (f, r) => ({ pre: f.pre + r.n, verified: f.verified + num(r.verified), purchased: f.purchased + num(r.purchased) }),
    { pre: 0, verified: 0, purchased: 0 },
  );
  const funnel: Funnel = {
    preregistered: funnelCounts.pre,
    verified: funnelCounts.verified,
    purchased: funnelCounts.purchased,
    rates: {
      verified: rate(funnelCounts.verified, funnelCounts.pre),
      purchased: rate(funnelCounts.purchased, funnelCounts.verified),
      overall: rate(funnelCounts.purchased, funnelCounts.pre),
    },
  };

  const branchTitles = new Map(
    db
      .select({ id: branches.id, title: branches.title, deleted_at: branches.deleted_at })
      .from(branches)
      .where(isHeadOffice(scope) ? undefined : eq(branches.id, scope.branchId))
      .all()
      .map((b) => [b.id, b]),
  );
  const branchRows = new Map<number | null, BranchRow>();
  const branchRow = (id: number | null) => (): BranchRow => ({
    id,
    title: id === null ? "No branch (public, no showroom named)" : (branchTitles.get(id)?.title ?? `Branch ${id}`),
    preregistrations: 0,
    verified: 0,
    purchased: 0,
    registrations: 0,
    test_rides: 0,
  });
  for (const b of branchTitles.values()) if (!b.deleted_at) addTo(branchRows, b.id, branchRow(b.id), () => {});
  for (const r of preCube)
    addTo(branchRows, r.branch_id, branchRow(r.branch_id), (row) => {
      row.preregistrations += r.n;
      row.verified += num(r.verified);
      row.purchased += num(r.purchased);
    });
  for (const r of regCube) addTo(branchRows, r.branch_id, branchRow(r.branch_id), (row) => (row.registrations += r.n));
  for (const r of rideCube) addTo(branchRows, r.branch_id, branchRow(r.branch_id), (row) => (row.test_rides += r.n));

  const models = new Map(
    db
      .select({ id: bikeModels.id, title: bikeModels.title, deleted_at: bikeModels.deleted_at })
      .from(bikeModels)
      .all()
      .map((m) => [m.id, m]),
  );
  const modelRows = new Map<number | null, ModelRow>();
  const modelRow = (id: number | null) => (): ModelRow => ({
    id,
    title: id === null ? "Not given" : (models.get(id)?.title ?? `Model ${id}`),
    preregistrations: 0,
    registrations: 0,
    test_rides: 0,
  });
  for (const m of models.values()) if (!m.deleted_at) addTo(modelRows, m.id, modelRow(m.id), () => {});
  for (const r of preCube)
    addTo(modelRows, r.bike_model_id, modelRow(r.bike_model_id), (row) => (row.preregistrations += r.n));
  for (const r of regCube)
    addTo(modelRows, r.bike_model_id, modelRow(r.bike_model_id), (row) => (row.registrations += r.n));
  for (const r of rideCube)
    addTo(modelRows, r.bike_model_id, modelRow(r.bike_model_id), (row) => (row.test_rides += r.n));

  const sourceRows = new Map<string | null, SourceRow>();
  const sourceRow = (source: string | null) => (): SourceRow => ({
    source,
    label: source ?? "Not given",
    preregistrations: 0,
    verified: 0,
    purchased: 0,
  });
  for (const s of SOURCE_OPTIONS) addTo(sourceRows, s, sourceRow(s), () => {});
  for (const r of preCube)
    addTo(sourceRows, r.source, sourceRow(r.source), (row) => {
      row.preregistrations += r.n;
      row.verified += num(r.verified);
      row.purchased += num(r.purchased);
    });

  const paymentRows: PaymentRow[] = PAYMENT_MODES.map((mode) => ({
    payment_mode: mode,
    label: PAYMENT_MODE_LABELS[mode],
    registrations: regCube.filter((r) => r.payment_mode === mode).reduce((s, r) => s + r.n, 0),
  }));

  const change = (value: number, previousValue: number): Change => ({
    value,
    previous: previousValue,
    change: percentChange(value, previousValue),
  });

  return {
    range,
    previous,
    default_range: isDefault,
    totals: {
      preregistrations: change(total(current, "preregistrations"), total(before, "preregistrations")),
      verifications: change(total(current, "verifications"), total(before, "verifications")),
      registrations: change(total(current, "registrations"), total(before, "registrations")),
      test_rides: change(total(current, "test_rides"), total(before, "test_rides")),
      prize_money: change(prizeTotal, prizeBefore),
    },
    daily,
    funnel,
    prizes: { by_thrill: byThrill, total: prizeTotal, by_type: byType },
    by_branch: [...branchRows.values()]
      // A deleted branch or the public bucket only shows when it has figures.
      .filter((r) => r.id !== null || r.preregistrations > 0)
      .sort(byFigures<BranchRow>("registrations", "preregistrations", "test_rides")),
    by_model: [...modelRows.values()]
      .filter((r) => r.id !== null || r.preregistrations > 0)
      .sort(byFigures<ModelRow>("registrations", "preregistrations", "test_rides")),
    by_source: [...sourceRows.values()]
      .filter((r) => r.source !== null || r.preregistrations > 0)
      .sort((a, b) => b.preregistrations - a.preregistrations || a.label.localeCompare(b.label)),
    by_payment_mode: paymentRows,
  };
}
