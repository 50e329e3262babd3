// The analytics figures against counts written here in plain SQL, with each Kathmandu day's UTC bounds
// spelled out by hand (a Kathmandu day D runs from D-1 18:15Z to D 18:15Z), for a fixed set of records on
// both sides of the midnight between 2026-11-21 and 2026-11-22 (18:14Z and 18:16Z fall on different
// days); the change against the previous period, the funnel rates, the prize money by thrill and by
// pool type, the breakdowns, a branch user's scope, slices of any size, and GET /api/v1/analytics.
import { withLabels } from "~/utils/labels";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { drawSecondThrill, drawThirdThrill } from "~/models/prize-draw.server";
import { loader as apiLoader } from "~/routes/api.v1.analytics";
import { analyticsRangeSchema, ANALYTICS_MESSAGES } from "~/schemas/analytics";
import { issueToken } from "~/http/api.server";
import { randomSlug } from "~/utils/crypto.server";
import { setClock } from "~/utils/time";
import { makeAllocation, makeBikeModel, makeBranch, makePreregistration, makeUser } from "../../tests/fixtures";
import { campaignAnalytics } from "./analytics.server";
import { previousRange, resolveRange, slices } from "./analytics-queries.server";
import type { Analytics } from "./analytics";
import { responseOf } from "../../tests/route-helpers";

const NOW = new Date("2026-11-23T06:00:00.000Z"); // 2026-11-23 11:45 in Kathmandu
const RANGE = { from: "2026-11-20", to: "2026-11-22" };
const PREVIOUS = { from: "2026-11-17", to: "2026-11-19" };

/** The UTC bounds [start, end) of a Kathmandu day, by hand: UTC+05:45, so the day starts at 18:15Z the day before. */
function kathmanduDay(date: string): [string, string] {
  const [y, m, d] = date.split("-").map(Number);
  const start = new Date(Date.UTC(y, m - 1, d - 1, 18, 15)).toISOString();
  const end = new Date(Date.UTC(y, m - 1, d, 18, 15)).toISOString();
  return [start, end];
}
const span = (r: { from: string; to: string }): [string, string] => [kathmanduDay(r.from)[0], kathmanduDay(r.to)[1]];
const daysOf = (r: { from: string; to: string }) => {
  const out: string[] = [];
  for (let t = Date.parse(`${r.from}T00:00:00Z`); t <= Date.parse(`${r.to}T00:00:00Z`); t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
};

const sql = db.$client;
const one = (query: string, ...params: unknown[]) =>
  Number(
    sql
      .prepare(query)
      .pluck()
      .get(...params) ?? 0,
  );
const rows = <T>(query: string, ...params: unknown[]) => sql.prepare(query).all(...params) as T[];

let A: { id: number; title: string };
let B: { id: number; title: string };
let M1: { id: number; title: string };
let M2: { id: number; title: string };
let n = 0;
const WIN = () => 0; // wins the first pool with a chance above 0; the fallback's first row (Rs 4,000)

type PreOpts = {
  at: string;
  branch?: number | null;
  nearest?: number | null;
  model: number;
  source: string | null;
  shared?: boolean;
  verified?: string;
  deleted?: boolean;
};

function pre(o: PreOpts) {
  const row = makePreregistration({
    created_at: o.at,
    branch_id: o.branch ?? null,
    nearest_branch_id: o.nearest ?? null,
    bike_model_id: o.model,
    source: o.source,
    shared: !!o.shared,
  });
  if (o.verified) {
    db.update(schema.preregistrations)
      .set({ is_verified: true, status: "verified", verified_at: o.verified })
      .where(eq(schema.preregistrations.id, row.id))
      .run();
    drawSecondThrill(row.id, { now: new Date(o.verified), random: WIN });
  }
  if (o.deleted)
    db.update(schema.preregistrations).set({ deleted_at: o.at }).where(eq(schema.preregistrations.id, row.id)).run();
  return row;
}

function purchase(
  p: { id: number; phone: string },
  o: { at: string; branch: number; model: number; mode: (typeof schema.registrations.$inferInsert)["payment_mode"] },
  { drawAt, deleted = false }: { drawAt?: string; deleted?: boolean } = {},
) {
  n++;
  const reg = db
    .insert(schema.registrations)
    .values({
      slug: randomSlug(),
      bill_no: `AN-${n}`,
      name: "Buyer",
      address: "Somewhere",
      citizenship_no: `99${n}`,
      phone: p.phone,
      bike_model_id: o.model,
      engine_no: `AN-E${n}`,
      chasis_no: `AN-C${n}`,
      registration_no: `AN-R${n}`,
      payment_mode: o.mode,
      branch_id: o.branch,
      preregistration_id: p.id,
      status: "confirmed",
      confirmed_at: o.at,
      purchase_date: o.at.slice(0, 10),
      coupon_code: `TH-AN-${n}`,
      created_at: o.at,
    })
    .returning()
    .get();
  db.update(schema.preregistrations)
    .set({ purchased: true, status: "purchased" })
    .where(eq(schema.preregistrations.id, p.id))
    .run();
  if (drawAt) drawThirdThrill(reg.id, { now: new Date(drawAt), random: WIN });
  if (deleted)
    db.update(schema.registrations).set({ deleted_at: o.at }).where(eq(schema.registrations.id, reg.id)).run();
  return reg;
}

function ride(at: string, branch: number, model: number, deleted = false) {
  db.insert(schema.testRides)
    .values({
      slug: randomSlug(),
      first_name: "T",
      name: "T",
      phone: "9800000000",
      bike_model_id: model,
      branch_id: branch,
      state: "S",
      district: "D",
      city: "C",
      created_at: at,
      deleted_at: deleted ? at : null,
    })
    .run();
}

beforeAll(() => {
  setClock(() => NOW);
  A = makeBranch({ title: "Analytics A" });
  B = makeBranch({ title: "Analytics B" });
  M1 = makeBikeModel("Analytics M1");
  M2 = makeBikeModel("Analytics M2");

  // Prize pools (probability 100: the first roll wins). In the range: public 11-21, A's pre-registration
  // and registration pools 11-22, B's registration pool 11-21. Outside: A 11-18 (previous), A 11-10.
  makeAllocation({ type: "preregistration_public", date: "2026-11-21", amount: 20000, count: 1, probability: 100 });
  makeAllocation({
    type: "preregistration_branch",
    branch_id: A.id,
    date: "2026-11-22",
    amount: 6000,
    count: 2,
    probability: 100,
  });
  makeAllocation({
    type: "registration_branch",
    branch_id: A.id,
    date: "2026-11-22",
    amount: 3000,
    count: 3,
    probability: 100,
  });
  makeAllocation({
    type: "registration_branch",
    branch_id: B.id,
    date: "2026-11-21",
    amount: 10000,
    count: 1,
    probability: 100,
  });
  makeAllocation({
    type: "registration_branch",
    branch_id: A.id,
    date: "2026-11-18",
    amount: 5000,
    count: 1,
    probability: 100,
  });
  makeAllocation({
    type: "registration_branch",
    branch_id: A.id,
    date: "2026-11-10",
    amount: 2000,
    count: 1,
    probability: 100,
  });

  // Pre-registrations (Kathmandu day in the comments).
  const p1 = pre({
    at: "2026-11-21T18:14:00.000Z",
    branch: A.id,
    model: M1.id,
    source: "RADIO",
    shared: true,
    verified: "2026-11-21T18:16:00.000Z",
  }); // made 11-21 23:59, verified 11-22 00:01 (A pool 6000)
  pre({
    at: "2026-11-21T18:16:00.000Z",
    nearest: B.id,
    model: M2.id,
    source: "SOCIAL MEDIA",
    verified: "2026-11-21T18:20:00.000Z",
  }); // made 11-22 00:01, public naming B; fallback 4000
  const p3 = pre({
    at: "2026-11-20T06:00:00.000Z",
    nearest: A.id,
    model: M1.id,
    source: "NEWSPAPER",
    shared: true,
    verified: "2026-11-20T06:05:00.000Z",
  }); // 11-20, public naming A; fallback
  pre({ at: "2026-11-21T08:00:00.000Z", branch: B.id, model: M2.id, source: null }); // 11-21, never verified
  pre({ at: "2026-11-21T09:00:00.000Z", model: M1.id, source: "OTHERS", verified: "2026-11-21T09:10:00.000Z" }); // 11-21, public, no showroom; public pool 20000
  const p6 = pre({
    at: "2026-11-18T07:00:00.000Z",
    branch: A.id,
    model: M1.id,
    source: "RADIO",
    shared: true,
    verified: "2026-11-20T04:00:00.000Z",
  }); // made in the previous period, verified 11-20
  const p7 = pre({
    at: "2026-11-18T09:00:00.000Z",
    branch: B.id,
    model: M2.id,
    source: "TVC",
    shared: true,
    verified: "2026-11-18T09:05:00.000Z",
  }); // previous period
  pre({
    at: "2026-11-21T12:00:00.000Z",
    branch: A.id,
    model: M2.id,
    source: "RADIO",
    shared: true,
    verified: "2026-11-21T12:05:00.000Z",
    deleted: true,
  }); // deleted: never counts
  const p9 = pre({
    at: "2026-11-22T03:00:00.000Z",
    branch: B.id,
    model: M1.id,
    source: "SOCIAL MEDIA",
    shared: true,
    verified: "2026-11-22T03:05:00.000Z",
  }); // 11-22; bought, then the registration deleted
  const p10 = pre({
    at: "2026-11-20T10:00:00.000Z",
    branch: B.id,
    model: M2.id,
    source: "EXISTING CUSTOMER",
    verified: "2026-11-20T10:30:00.000Z",
  }); // 11-20
  const p11 = pre({
    at: "2026-11-10T05:00:00.000Z",
    branch: A.id,
    model: M1.id,
    source: "RADIO",
    verified: "2026-11-10T05:05:00.000Z",
  }); // the first record: before both periods
  pre({ at: "2026-11-23T02:00:00.000Z", branch: B.id, model: M1.id, source: "RADIO" }); // today: after the range

  // Registrations.
  purchase(
    p1,
    { at: "2026-11-22T05:00:00.000Z", branch: A.id, model: M1.id, mode: "CASH" },
    { drawAt: "2026-11-22T05:05:00.000Z" },
  ); // 11-22, A coupon pool 3000
  purchase(
    p3,
    { at: "2026-11-21T10:00:00.000Z", branch: A.id, model: M1.id, mode: "FINANCE" },
    { drawAt: "2026-11-21T10:05:00.000Z" },
  ); // 11-21, no pool: nothing
  purchase(
    p6,
    { at: "2026-11-20T05:00:00.000Z", branch: A.id, model: M2.id, mode: "CASH_EXCHANGE" },
    { drawAt: "2026-11-20T05:10:00.000Z" },
  ); // 11-20
  purchase(
    p7,
    { at: "2026-11-19T06:00:00.000Z", branch: B.id, model: M2.id, mode: "CASH" },
    { drawAt: "2026-11-19T06:05:00.000Z" },
  ); // previous period
  purchase(
    p9,
    { at: "2026-11-22T04:00:00.000Z", branch: B.id, model: M1.id, mode: "FINANCE" },
    { drawAt: "2026-11-22T04:05:00.000Z", deleted: true },
  ); // deleted
  purchase(
    p10,
    { at: "2026-11-21T18:14:30.000Z", branch: B.id, model: M2.id, mode: "SELF_FINANCE" },
    { drawAt: "2026-11-21T18:14:40.000Z" },
  ); // 11-21 23:59:30, B pool 10000
  purchase(
    p11,
    { at: "2026-11-10T06:00:00.000Z", branch: A.id, model: M1.id, mode: "CASH" },
    { drawAt: "2026-11-10T06:05:00.000Z" },
  ); // before both periods

  // Test rides.
  ride("2026-11-21T18:14:00.000Z", A.id, M1.id); // 11-21
  ride("2026-11-21T18:16:00.000Z", B.id, M2.id); // 11-22
  ride("2026-11-22T10:00:00.000Z", A.id, M2.id); // 11-22
  ride("2026-11-18T10:00:00.000Z", A.id, M1.id); // previous period
  ride("2026-11-20T10:00:00.000Z", A.id, M1.id, true); // deleted
});

afterAll(() => setClock(null));

// ---------------------------------------------------------------- the figures, in plain SQL

/** A branch's rows, as plain SQL: pre-registrations it owns (made there, else named nearest), its registrations and rides. */
const owner = (branchId: number | null, alias = "") =>
  branchId === null ? "" : ` and coalesce(${alias}branch_id, ${alias}nearest_branch_id) = ${branchId}`;
const own = (branchId: number | null, alias = "") => (branchId === null ? "" : ` and ${alias}branch_id = ${branchId}`);

function expectedDaily(branchId: number | null, r: { from: string; to: string }) {
  return daysOf(r).map((date) => {
    const [s, e] = kathmanduDay(date);
    return {
      date,
      preregistrations: one(
        `select count(*) from preregistrations where deleted_at is null and created_at >= ? and created_at < ?${owner(branchId)}`,
        s,
        e,
      ),
      verifications: one(
        `select count(*) from preregistrations where deleted_at is null and verified_at >= ? and verified_at < ?${owner(branchId)}`,
        s,
        e,
      ),
      registrations: one(
        `select count(*) from registrations where deleted_at is null and created_at >= ? and created_at < ?${own(branchId)}`,
        s,
        e,
      ),
      test_rides: one(
        `select count(*) from test_rides where deleted_at is null and created_at >= ? and created_at < ?${own(branchId)}`,
        s,
        e,
      ),
    };
  });
}

function expectedPrizes(branchId: number | null, r: { from: string; to: string }) {
  const [s, e] = span(r);
  const first =
    1000 *
    one(
      `select count(*) from preregistrations where deleted_at is null and shared = 1 and verified_at >= ? and verified_at < ?${owner(branchId)}`,
      s,
      e,
    );
  const second = one(
    `select sum(d.amount) from draws d join preregistrations p on p.id = d.entry_id
     where d.entry_type = 'preregistration' and p.deleted_at is null and p.verified_at >= ? and p.verified_at < ?${owner(branchId, "p.")}`,
    s,
    e,
  );
  const third = one(
    `select sum(d.amount) from draws d join registrations r on r.id = d.entry_id
     where d.entry_type = 'registration' and r.deleted_at is null and d.date >= ? and d.date <= ?${own(branchId, "r.")}`,
    r.from,
    r.to,
  );
  return { first, second, third, total: first + second + third };
}

const pct = (a: number, b: number) => (b === 0 ? (a === 0 ? 0 : null) : Math.round(((a - b) / b) * 10000) / 100);
const rateOf = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 10000) / 100);

let head: Analytics;
let branchA: Analytics;

beforeAll(async () => {
  head = await campaignAnalytics({ branchId: null }, RANGE);
  branchA = await campaignAnalytics({ branchId: A.id }, RANGE);
});

describe("daily figures across a Kathmandu midnight", () => {
  it("counts each Kathmandu day as plain SQL does (head office)", () => {
    expect(head.range).toEqual({ ...RANGE, days: 3 });
    expect(head.previous).toEqual({ ...PREVIOUS, days: 3 });
    expect(head.daily).toEqual(expectedDaily(null, RANGE));
  });

  it("puts 18:14Z on 2026-11-21 and 18:16Z on 2026-11-22", () => {
    const day = (d: string) => head.daily.find((r) => r.date === d)!;
    // Pre-registrations: 11-20 P3, P10; 11-21 P1 (18:14Z), P4, P5; 11-22 P2 (18:16Z), P9. The deleted P8 never counts.
    expect(head.daily.map((r) => r.preregistrations)).toEqual([2, 3, 2]);
    // Verifications: P1 made at 18:14Z was verified at 18:16Z, on 11-22; P6 (made 11-18) was verified on 11-20.
    expect(head.daily.map((r) => r.verifications)).toEqual([3, 1, 3]);
    // Registrations: P10's at 18:14:30Z is on 11-21; P9's is deleted.
    expect(head.daily.map((r) => r.registrations)).toEqual([1, 2, 1]);
    // Test rides: 18:14Z on 11-21, 18:16Z on 11-22.
    expect(day("2026-11-21").test_rides).toBe(1);
    expect(day("2026-11-22").test_rides).toBe(2);
  });

  it("the totals against the previous period, to 2 decimals", () => {
    for (const key of ["preregistrations", "verifications", "registrations", "test_rides"] as const) {
      const value = expectedDaily(null, RANGE).reduce((s, r) => s + r[key], 0);
      const previous = expectedDaily(null, PREVIOUS).reduce((s, r) => s + r[key], 0);
      expect(head.totals[key], key).toEqual({ value, previous, change: pct(value, previous) });
    }
    expect(head.totals.preregistrations).toEqual({ value: 7, previous: 2, change: 250 });
    expect(head.totals.verifications).toEqual({ value: 7, previous: 1, change: 600 });
    expect(head.totals.registrations).toEqual({ value: 4, previous: 1, change: 300 });
    expect(head.totals.test_rides).toEqual({ value: 3, previous: 1, change: 200 });
    const prizes = expectedPrizes(null, RANGE).total;
    const before = expectedPrizes(null, PREVIOUS).total;
    expect(head.totals.prize_money).toEqual({ value: prizes, previous: before, change: pct(prizes, before) });
    expect(head.totals.prize_money).toEqual({ value: 63000, previous: 5000, change: 1160 });
  });

  it("a change with 2 decimals, and none without a previous figure", async () => {
    // 11-22 alone against 11-21: pre-registrations 2 against 3.
    const day = await campaignAnalytics({ branchId: null }, { from: "2026-11-22", to: "2026-11-22" });
    expect(day.totals.preregistrations).toEqual({ value: 2, previous: 3, change: -33.33 });
    // 11-10 against 11-09 (nothing): no figure.
    const first = await campaignAnalytics({ branchId: null }, { from: "2026-11-10", to: "2026-11-10" });
    expect(first.totals.registrations).toEqual({ value: 1, previous: 0, change: null });
  });
});

describe("funnel", () => {
  it("of the pre-registrations made in the range: verified, and bought with a registration not deleted", () => {
    const [s, e] = span(RANGE);
    const made = one(
      `select count(*) from preregistrations where deleted_at is null and created_at >= ? and created_at < ?`,
      s,
      e,
    );
    const verified = one(
      `select count(*) from preregistrations where deleted_at is null and is_verified = 1 and created_at >= ? and created_at < ?`,
      s,
      e,
    );
    const bought = one(
      `select count(*) from preregistrations p join registrations r on r.preregistration_id = p.id
       where p.deleted_at is null and r.deleted_at is null and p.created_at >= ? and p.created_at < ?`,
      s,
      e,
    );
    expect(head.funnel).toEqual({
      preregistered: made,
      verified,
      purchased: bought,
      rates: { verified: rateOf(verified, made), purchased: rateOf(bought, verified), overall: rateOf(bought, made) },
    });
    // P1..P10 made in the range, less the deleted P8: 7; all but P4 verified; P1, P3, P10 bought (P9's deleted).
    expect(head.funnel).toEqual({
      preregistered: 7,
      verified: 6,
      purchased: 3,
      rates: { verified: 85.71, purchased: 50, overall: 42.86 },
    });
  });
});

describe("prize money", () => {
  it("by thrill: first 1000 for each shared verification, second the prizes of the verified, third the coupons drawn", () => {
    const expected = expectedPrizes(null, RANGE);
    const by = Object.fromEntries(head.prizes.by_thrill.map((t) => [t.thrill, t.amount]));
    expect(by).toEqual({ first: expected.first, second: expected.second, third: expected.third });
    expect(head.prizes.total).toBe(expected.total);
    // First: P1, P3, P6, P9 shared. Second: P1 6000 (pool), P5 20000 (pool), P2, P3, P6, P9, P10 4000 each (fallback).
    // Third: P1 3000 and P10 10000 from pools, P3 and P6 nothing; P9's registration is deleted.
    expect(by).toEqual({ first: 4000, second: 46000, third: 13000 });
    const winners = Object.fromEntries(head.prizes.by_thrill.map((t) => [t.thrill, t.count]));
    expect(winners).toEqual({ first: 4, second: 7, third: 2 });
  });

  it("by pool type and outcome, against Σ count × amount of the pools dated in the range", () => {
    const [s, e] = span(RANGE);
    const allowed = new Map(
      rows<{ type: string; amount: number; prizes: number }>(
        `select type, sum(count * amount) as amount, sum(count) as prizes from allocations where date >= ? and date <= ? group by type`,
        RANGE.from,
        RANGE.to,
      ).map((r) => [r.type, r]),
    );
    const paid = rows<{ type: string; outcome: string; n: number; amount: number }>(
      `select d.pool_type as type, d.outcome, count(*) as n, sum(d.amount) as amount
         from draws d join preregistrations p on p.id = d.entry_id
        where d.entry_type = 'preregistration' and p.deleted_at is null and p.verified_at >= ? and p.verified_at < ?
        group by 1, 2
       union all
       select d.pool_type, d.outcome, count(*), sum(d.amount)
         from draws d join registrations r on r.id = d.entry_id
        where d.entry_type = 'registration' and r.deleted_at is null and d.date >= ? and d.date <= ?
        group by 1, 2`,
      s,
      e,
      RANGE.from,
      RANGE.to,
    );
    const of = (type: string, outcome: string) => paid.find((p) => p.type === type && p.outcome === outcome);
    for (const row of head.prizes.by_type) {
      expect(row, row.type).toMatchObject({
        allowed: allowed.get(row.type)?.amount ?? 0,
        allowed_count: allowed.get(row.type)?.prizes ?? 0,
        pool_count: of(row.type, "pool")?.n ?? 0,
        pool_amount: of(row.type, "pool")?.amount ?? 0,
        fallback_count: of(row.type, "fallback")?.n ?? 0,
        fallback_amount: of(row.type, "fallback")?.amount ?? 0,
        none_count: of(row.type, "none")?.n ?? 0,
      });
    }
    const byType = Object.fromEntries(
      head.prizes.by_type.map((t) => [t.type, [t.allowed, t.pool_amount, t.fallback_amount]]),
    );
    expect(byType).toEqual({
      preregistration_public: [20000, 20000, 8000],
      preregistration_branch: [12000, 6000, 12000],
      registration_branch: [19000, 13000, 0],
    });
  });
});

describe("breakdowns", () => {
  it("by branch (owner of a pre-registration: where made, else the showroom named), model, source, payment mode", () => {
    const [s, e] = span(RANGE);
    const pre = rows<{ branch: number | null; model: number; source: string | null; n: number; verified: number }>(
      `select coalesce(branch_id, nearest_branch_id) as branch, bike_model_id as model, source, count(*) as n, sum(is_verified) as verified
         from preregistrations where deleted_at is null and created_at >= ? and created_at < ? group by 1, 2, 3`,
      s,
      e,
    );
    const regs = rows<{ branch: number; model: number; mode: string; n: number }>(
      `select branch_id as branch, bike_model_id as model, payment_mode as mode, count(*) as n
         from registrations where deleted_at is null and created_at >= ? and created_at < ? group by 1, 2, 3`,
      s,
      e,
    );
    const rides = rows<{ branch: number; model: number; n: number }>(
      `select branch_id as branch, bike_model_id as model, count(*) as n
         from test_rides where deleted_at is null and created_at >= ? and created_at < ? group by 1, 2`,
      s,
      e,
    );
    const sum = <T>(list: T[], match: (r: T) => boolean, value: (r: T) => number) =>
      list.filter(match).reduce((t, r) => t + value(r), 0);

    for (const b of [A, B]) {
      const row = head.by_branch.find((r) => r.id === b.id)!;
      expect(row, b.title).toMatchObject({
        title: b.title,
        preregistrations: sum(
          pre,
          (r) => r.branch === b.id,
          (r) => r.n,
        ),
        verified: sum(
          pre,
          (r) => r.branch === b.id,
          (r) => r.verified,
        ),
        registrations: sum(
          regs,
          (r) => r.branch === b.id,
          (r) => r.n,
        ),
        test_rides: sum(
          rides,
          (r) => r.branch === b.id,
          (r) => r.n,
        ),
      });
    }
    // The public pre-registration that named no showroom has its own row.
    expect(head.by_branch.find((r) => r.id === null)).toMatchObject({ preregistrations: 1, verified: 1 });
    expect(head.by_branch.find((r) => r.id === A.id)).toMatchObject({ preregistrations: 2, purchased: 2 });

    for (const m of [M1, M2]) {
      expect(
        head.by_model.find((r) => r.id === m.id),
        m.title,
      ).toMatchObject({
        preregistrations: sum(
          pre,
          (r) => r.model === m.id,
          (r) => r.n,
        ),
        registrations: sum(
          regs,
          (r) => r.model === m.id,
          (r) => r.n,
        ),
        test_rides: sum(
          rides,
          (r) => r.model === m.id,
          (r) => r.n,
        ),
      });
    }
    for (const source of ["RADIO", "SOCIAL MEDIA", "NEWSPAPER", "OTHERS", "EXISTING CUSTOMER", null]) {
      expect(head.by_source.find((r) => r.source === source)?.preregistrations ?? 0, String(source)).toBe(
        sum(
          pre,
          (r) => r.source === source,
          (r) => r.n,
        ),
      );
    }
    expect(head.by_source.find((r) => r.source === null)?.label).toBe("Not given");
    for (const mode of head.by_payment_mode) {
      expect(mode.registrations, mode.payment_mode).toBe(
        sum(
          regs,
          (r) => r.mode === mode.payment_mode,
          (r) => r.n,
        ),
      );
    }
    expect(head.by_payment_mode.map((m) => m.registrations)).toEqual([1, 1, 1, 0, 1, 0]);
  });
});

describe("a branch user", () => {
  it("sees only its branch: its pre-registrations (made there or naming it), registrations, rides, prizes and pools", () => {
    expect(branchA.daily).toEqual(expectedDaily(A.id, RANGE));
    // A: P3 (public naming A, 11-20) and P1 (made at A, 11-21) made; P3, P6 verified on 11-20, P1 on 11-22.
    expect(branchA.daily.map((r) => [r.preregistrations, r.verifications, r.registrations, r.test_rides])).toEqual([
      [1, 2, 1, 0],
      [1, 0, 1, 1],
      [0, 1, 1, 1],
    ]);
    const expected = expectedPrizes(A.id, RANGE);
    expect(Object.fromEntries(branchA.prizes.by_thrill.map((t) => [t.thrill, t.amount]))).toEqual({
      first: expected.first,
      second: expected.second,
      third: expected.third,
    });
    expect(expected).toEqual({ first: 3000, second: 14000, third: 3000, total: 20000 });
    // Its own pools only; the public pools are head office's.
    expect(branchA.prizes.by_type.map((t) => [t.type, t.allowed])).toEqual([
      ["preregistration_public", null],
      ["preregistration_branch", 12000],
      ["registration_branch", 9000],
    ]);
    expect(branchA.by_branch.map((r) => r.id)).toEqual([A.id]);
    expect(branchA.funnel).toMatchObject({ preregistered: 2, verified: 2, purchased: 2 });
    // Nothing of B's: the public pre-registration naming B, B's sales and rides.
    const mine = branchA.by_model.reduce((s, r) => s + r.preregistrations + r.registrations + r.test_rides, 0);
    expect(mine).toBe(2 + 3 + 2);
  });

  it("head office's figures are the branches' added up", () => {
    const perBranch = head.by_branch.reduce((s, r) => s + r.preregistrations, 0);
    expect(perBranch).toBe(head.totals.preregistrations.value);
    expect(head.by_branch.reduce((s, r) => s + r.registrations, 0)).toBe(head.totals.registrations.value);
  });
});

describe("ranges and slices", () => {
  it("reads the same figures whatever the slice size", async () => {
    const wide = { from: "2026-11-09", to: "2026-11-23" };
    const big = await campaignAnalytics({ branchId: null }, wide, { sliceDays: 30 });
    const small = await campaignAnalytics({ branchId: null }, wide, { sliceDays: 1 });
    const three = await campaignAnalytics({ branchId: null }, wide, { sliceDays: 3 });
    expect(small).toEqual(big);
    expect(three).toEqual(big);
    expect(big.daily).toEqual(expectedDaily(null, wide));
    expect(await campaignAnalytics({ branchId: A.id }, wide, { sliceDays: 2 })).toEqual(
      await campaignAnalytics({ branchId: A.id }, wide, { sliceDays: 30 }),
    );
  });

  it("defaults to the campaign so far: the first record's Kathmandu day to today", async () => {
    const all = await campaignAnalytics({ branchId: null });
    expect(all.default_range).toBe(true);
    expect(all.range).toEqual({ from: "2026-11-10", to: "2026-11-23", days: 14 });
    expect(all.previous).toEqual({ from: "2026-10-27", to: "2026-11-09", days: 14 });
    // One end given: the other is the campaign's first day or today.
    expect(resolveRange({ branchId: null }, { from: "2026-11-20" }, NOW).range).toEqual({
      from: "2026-11-20",
      to: "2026-11-23",
      days: 4,
    });
    expect(resolveRange({ branchId: null }, { to: "2026-11-12" }, NOW).range.from).toBe("2026-11-10");
    // A branch's campaign starts with its own first record; one without records starts today.
    const empty = makeBranch();
    expect(resolveRange({ branchId: empty.id }, {}, NOW).range).toEqual({
      from: "2026-11-23",
      to: "2026-11-23",
      days: 1,
    });
  });

  it("cuts a range into slices and finds the previous period", () => {
    expect(slices({ from: "2026-11-28", to: "2026-12-03" }, 4)).toEqual([
      { from: "2026-11-28", to: "2026-12-01" },
      { from: "2026-12-02", to: "2026-12-03" },
    ]);
    expect(previousRange({ from: "2026-12-01", to: "2026-12-07", days: 7 })).toEqual({
      from: "2026-11-24",
      to: "2026-11-30",
      days: 7,
    });
  });

  it("the range schema refuses a date that does not read, an end before the start and more than 366 days", () => {
    const errors = (input: Record<string, string>) => {
      const r = analyticsRangeSchema.safeParse(input);
      return r.success ? null : r.error.issues.map((i) => [i.path.join("."), i.message]);
    };
    expect(errors({ from: "2026-11-20", to: "2026-11-22" })).toBeNull();
    expect(errors({ from: "", to: "" })).toBeNull();
    expect(errors({ from: "2026-02-30" })).toEqual([["from", ANALYTICS_MESSAGES.date]]);
    expect(errors({ from: "yesterday" })).toEqual([["from", ANALYTICS_MESSAGES.date]]);
    expect(errors({ from: "2026-11-22", to: "2026-11-20" })).toEqual([["to", ANALYTICS_MESSAGES.toBeforeFrom]]);
    expect(errors({ from: "2025-01-01", to: "2026-11-20" })).toEqual([["to", ANALYTICS_MESSAGES.tooLong]]);
  });
});

describe("GET /api/v1/analytics", () => {
  const get = async (query: string, token?: string) => {
    return responseOf(
      apiLoader({
        request: new Request(`http://localhost/api/v1/analytics${query}`, {
          headers: token ? { Authorization: `Bearer ${token}` } : {},
        }),
        context: { clientAddress: "127.0.0.1" },
        params: {},
      }),
    );
  };

  it("401 without a token, 403 without send-sms, 422 for a bad date, the page's figures otherwise", async () => {
    expect((await get("")).status).toBe(401);
    const staff = await makeUser("branch-staff", A.id);
    expect((await get("", issueToken(staff.id, false).token)).status).toBe(403);
    const admin = await makeUser("super-admin", null);
    const token = issueToken(admin.id, false).token;
    const bad = await get("?from=2026-13-01&to=2026-11-01", token);
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { errors: Record<string, string[]> }).errors).toEqual({
      from: [ANALYTICS_MESSAGES.date],
    });
    const ok = await get(`?from=${RANGE.from}&to=${RANGE.to}`, token);
    expect(ok.status).toBe(200);
    const now = await campaignAnalytics({ branchId: null }, RANGE);
    // The page's figures, with the API's *_label beside enumerated values.
    expect(((await ok.json()) as { data: Analytics }).data).toEqual(withLabels(JSON.parse(JSON.stringify(now))));
    // A branch user holding send-sms gets its branch's figures.
    const branchAdmin = await makeUser("super-admin", A.id);
    const mine = await get(`?from=${RANGE.from}&to=${RANGE.to}`, issueToken(branchAdmin.id, false).token);
    expect(((await mine.json()) as { data: Analytics }).data).toEqual(withLabels(JSON.parse(JSON.stringify(branchA))));
  });
});
