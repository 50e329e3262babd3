/**
 * The dashboard's figures, one function for the page and GET /api/v1/dashboard,
 * and the per-branch figures of GET /api/v1/branch-stats. "Today" and
 * "yesterday" are Kathmandu calendar days; deleted records do not count;
 * branch users count their branch only.
 *
 * The four cards and their change (percent, 2 decimals), each comparing like
 * with like:
 * - the totals (Total Sales, Pre-Registrations, Test Rides) show their own
 *   growth: the total now against the total at the end of yesterday;
 * - Daily Sales, a daily figure, compares today with yesterday:
 *   (today − yesterday) / yesterday (spec 000 §9).
 * With nothing yesterday to compare with the change is null ("no figure
 * yesterday"), or 0 when today is nothing either.
 */
import { and, count, eq, gte, isNull, lt, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { db, schema } from "@db/index";
import { kathmanduDate, kathmanduDayRange, now as clockNow, shiftDate } from "~/utils/time";
import { preregistrationScope } from "./preregistration-reach.server";
import { branchCondition, type Scope, isHeadOffice } from "./scope.server";

const { registrations: R, preregistrations: P, testRides: T, branches } = schema;

export type DashboardStats = {
  total: number;
  preregistrations: number;
  preregistrations_today: number;
  preregistrations_yesterday: number;
  sales_today: number;
  sales_yesterday: number;
  test_rides: number;
  test_rides_today: number;
  test_rides_yesterday: number;
  /** The Kathmandu date the figures are for. */
  date: string;
  /** Percent change of each card against yesterday, 2 decimals; null when yesterday had nothing. */
  changes: { total: number | null; preregistrations: number | null; sales: number | null; test_rides: number | null };
};

/** (today − yesterday) / yesterday × 100, rounded to 2 decimals; null when yesterday is 0 and today is not. */
export function percentChange(today: number, yesterday: number): number | null {
  if (yesterday === 0) return today === 0 ? 0 : null;
  return Math.round(((today - yesterday) / yesterday) * 10000) / 100;
}

type Counted = { table: typeof R | typeof P | typeof T; created: SQLiteColumn; where: (SQL | undefined)[] };

function counter(
  { table, created, where }: Counted,
  days: { today: { start: string; end: string }; yesterday: { start: string; end: string } },
) {
  const countWhere = (...extra: (SQL | undefined)[]) =>
    db
      .select({ n: count() })
      .from(table)
      .where(and(...where, ...extra))
      .get()?.n ?? 0;
  return {
    all: countWhere(),
    today: countWhere(gte(created, days.today.start), lt(created, days.today.end)),
    yesterday: countWhere(gte(created, days.yesterday.start), lt(created, days.yesterday.end)),
  };
}

/** The dashboard figures for a scope at an instant (default: now). */
export function dashboardStats(scope: Scope, at: Date = clockNow()): DashboardStats {
  const date = kathmanduDate(at);
  const days = { today: kathmanduDayRange(date), yesterday: kathmanduDayRange(shiftDate(date, -1)) };
  const sales = counter(
    { table: R, created: R.created_at, where: [isNull(R.deleted_at), branchCondition(R.branch_id, scope)] },
    days,
  );
  const pre = counter(
    { table: P, created: P.created_at, where: [isNull(P.deleted_at), preregistrationScope(scope)] },
    days,
  );
  const rides = counter(
    { table: T, created: T.created_at, where: [isNull(T.deleted_at), branchCondition(T.branch_id, scope)] },
    days,
  );
  return {
    total: sales.all,
    preregistrations: pre.all,
    preregistrations_today: pre.today,
    preregistrations_yesterday: pre.yesterday,
    sales_today: sales.today,
    sales_yesterday: sales.yesterday,
    test_rides: rides.all,
    test_rides_today: rides.today,
    test_rides_yesterday: rides.yesterday,
    date,
    changes: {
      total: percentChange(sales.all, sales.all - sales.today),
      preregistrations: percentChange(pre.all, pre.all - pre.today),
      sales: percentChange(sales.today, sales.yesterday),
      test_rides: percentChange(rides.all, rides.all - rides.today),
    },
  };
}

export type BranchStatsRow = {
  id: number;
  slug: string;
  title: string;
  city: string;
  registrations_count: number;
  sales_today: number;
  sales_yesterday: number;
  preregistrations_count: number;
  test_rides_count: number;
};

/**
 * GET /api/v1/branch-stats: per branch, its registrations (all, today,
 * yesterday), its pre-registrations (made there, or public naming it nearest)
 * and its test rides. Branch users get their branch only.
 */
export function branchStats(scope: Scope, at: Date = clockNow()): BranchStatsRow[] {
  const date = kathmanduDate(at);
  const today = kathmanduDayRange(date);
  const yesterday = kathmanduDayRange(shiftDate(date, -1));
  const byBranch = <K extends string>(rows: ({ branch_id: number | null } & Record<K, number>)[], key: K) =>
    new Map(rows.map((r) => [r.branch_id, r[key]]));

  const sales = db
    .select({
      branch_id: R.branch_id,
      n: count(),
      today: sql<number>`sum(case when ${R.created_at} >= ${today.start} and ${R.created_at} < ${today.end} then 1 else 0 end)`,
      yesterday: sql<number>`sum(case when ${R.created_at} >= ${yesterday.start} and ${R.created_at} < ${yesterday.end} then 1 else 0 end)`,
    })
    .from(R)
    .where(and(isNull(R.deleted_at), branchCondition(R.branch_id, scope)))
    .groupBy(R.branch_id)
    .all();
  const preOwner = sql<number>`coalesce(${P.branch_id}, ${P.nearest_branch_id})`;
  const pre = byBranch(
    db
      .select({ branch_id: preOwner, n: count() })
      .from(P)
      .where(and(isNull(P.deleted_at), preregistrationScope(scope)))
      .groupBy(preOwner)
      .all(),
    "n",
  );
  const rides = byBranch(
    db
      .select({ branch_id: T.branch_id, n: count() })
      .from(T)
      .where(and(isNull(T.deleted_at), branchCondition(T.branch_id, scope)))
      .groupBy(T.branch_id)
      .all(),
    "n",
  );
  const salesBy = new Map(sales.map((s) => [s.branch_id, s]));
  return db
    .select({ id: branches.id, slug: branches.slug, title: branches.title, city: branches.city })
    .from(branches)
    .where(and(isNull(branches.deleted_at), isHeadOffice(scope) ? undefined : eq(branches.id, scope.branchId)))
    .orderBy(branches.title)
    .all()
    .map((b) => {
      const s = salesBy.get(b.id);
      return {
        ...b,
        registrations_count: s?.n ?? 0,
        sales_today: Number(s?.today ?? 0),
        sales_yesterday: Number(s?.yesterday ?? 0),
        preregistrations_count: pre.get(b.id) ?? 0,
        test_rides_count: rides.get(b.id) ?? 0,
      };
    });
}
