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
import { eq } from "drizzle-orm";
import { db, schema } from "@db/index";
import { percentChange } from "~/models/dashboard.server";
import { ALLOCATION_TYPE_LABELS, ALLOCATION_TYPES, FIRST_THRILL } from "~/utils/prize-constants";
import { type Scope, isHeadOffice } from "~/models/scope.server";
import { type AnalyticsRangeInput } from "~/schemas/analytics";
import { SOURCE_OPTIONS } from "~/schemas/preregistration";
import { PAYMENT_MODE_LABELS, PAYMENT_MODES } from "~/schemas/registration";
import { kathmanduDate, now as clockNow } from "~/utils/time";
import { label } from "~/utils/labels";
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
import {
  addTo,
  allowedByType,
  byFigures,
  type DayFigures,
  type DrawGroup,
  figuresByDay,
  firstCreated,
  num,
  preregistrationCube,
  previousRange,
  registrationCube,
  resolveRange,
  SLICE_DAYS,
  sliced,
  sumAmount,
  sumCount,
  testRideCube,
} from "./analytics-queries.server";
import { preregistrationOwnerScope } from "./preregistration-reach.server";

const { preregistrations: P, branches, bikeModels } = schema;

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
    label: label("source", source) || "Not given",
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
