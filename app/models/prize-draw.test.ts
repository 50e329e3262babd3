import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { makeBikeModel, makeBranch, makePreregistration } from "../../tests/fixtures";
import {
  FIRST_THRILL,
  PRE_PRIZES,
  REGISTRATION_PRE_PRIZES,
  REGISTRATION_PRIZES,
  VIDEO_AMOUNTS,
  amountsForType,
  firstThrill,
  prizeBreakdown,
  prizeLabel,
  totalPrize,
} from "~/utils/prize-constants";
import {
  DRAW_MESSAGES,
  DrawError,
  drawSecondThrill,
  drawThirdThrill,
  getDraw,
  orderPools,
  parseDrawAudit,
  pickWeighted,
  rollPools,
  type PoolRoll,
} from "./prize-draw.server";
import { listDraws } from "./draw-audit.server";
import { DEFAULT_BASE_TABLES, getBaseTable, setBaseTable } from "./prize-settings.server";
import { HEAD_OFFICE, SYSTEM_ACTOR } from "./scope.server";

const { allocations, draws, preregistrations, registrations, settings } = schema;

const DATE = "2026-11-21";
const AT = new Date("2026-11-21T06:00:00Z"); // 11:45 in Kathmandu

/** A random source giving exactly these values, then failing (so extra rolls show up). */
function seq(...values: number[]) {
  let i = 0;
  const fn = () => {
    if (i >= values.length) throw new Error(`random source exhausted after ${values.length} values`);
    return values[i++];
  };
  return Object.assign(fn, { used: () => i });
}

type PoolOver = Partial<typeof allocations.$inferInsert>;
function pool(over: PoolOver = {}) {
  return db
    .insert(allocations)
    .values({ type: "preregistration_public", date: DATE, amount: 10000, count: 5, probability: 100, ...over })
    .returning()
    .get();
}

const verified = (over: Parameters<typeof makePreregistration>[0] = {}) =>
  makePreregistration({ is_verified: true, status: "verified", verified_at: AT.toISOString(), ...over });

let regN = 0;
function makeRegistration(branchId: number, over: Partial<typeof registrations.$inferInsert> = {}) {
  const pre = verified({ branch_id: branchId, purchased: true, status: "purchased" });
  const bike = makeBikeModel();
  const n = `${Date.now().toString(36)}${regN++}`;
  return db
    .insert(registrations)
    .values({
      slug: `reg-${n}`,
      bill_no: `B${branchId}-${n}`,
      name: pre.name,
      address: pre.address,
      citizenship_no: pre.citizenship_no,
      phone: pre.phone,
      bike_model_id: bike.id,
      engine_no: `E${n}`,
      chasis_no: `C${n}`,
      registration_no: `R${n}`,
      branch_id: branchId,
      preregistration_id: pre.id,
      purchase_date: DATE,
      coupon_code: `CP${n}`,
      status: "confirmed",
      ...over,
    })
    .returning()
    .get();
}

const paidOf = (id: number) => db.select().from(allocations).where(eq(allocations.id, id)).get()!.paid;
const drawCount = (entryType: "preregistration" | "registration", entryId: number) =>
  db
    .select()
    .from(draws)
    .all()
    .filter((d) => d.entry_type === entryType && d.entry_id === entryId).length;
const clearBaseTables = () => db.delete(settings).run();

describe("prize lists and totals", () => {
  it("holds the spec's prize lists with their labels", () => {
    expect(PRE_PRIZES.map((p) => p.amount)).toEqual([
      4000, 5000, 6000, 7000, 8000, 9000, 10000, 11000, 12000, 13000, 14000, 15000, 16000, 17000, 18000, 20000, 50000,
    ]);
    expect(REGISTRATION_PRIZES.map((p) => p.amount)).toEqual([
      1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000, 11000, 12000, 13000, 14000, 15000, 20000, 50000,
      100000,
    ]);
    expect(REGISTRATION_PRE_PRIZES.map((p) => p.amount)).toEqual([
      8000, 9000, 10000, 11000, 12000, 13000, 14000, 15000, 16000, 17000, 18000, 50000,
    ]);
    expect(VIDEO_AMOUNTS).toEqual([
      { amount: 50000, label: "Fifty Thousand" },
      { amount: 100000, label: "One Lakh" },
      { amount: 1000000, label: "Ten Lakh" },
    ]);
    expect(prizeLabel(4000)).toBe("Rs. 4,000");
    expect(prizeLabel(50000)).toBe("Rs. 50,000");
    expect(prizeLabel(100000)).toBe("One Lakh");
    expect(prizeLabel(250000)).toBe("Rs. 2,50,000");
    expect(REGISTRATION_PRIZES.at(-1)).toEqual({ amount: 100000, label: "One Lakh" });
    expect(amountsForType("preregistration_public")).toEqual(PRE_PRIZES.map((p) => p.amount));
    expect(amountsForType("preregistration_branch")).toEqual(PRE_PRIZES.map((p) => p.amount));
    expect(amountsForType("registration_branch")).toEqual(REGISTRATION_PRIZES.map((p) => p.amount));
  });

  it("gives the first thrill (Rs 1000) only when verified and shared, and totals first + second + third", () => {
    expect(FIRST_THRILL).toBe(1000);
    expect(firstThrill({ shared: true, is_verified: true })).toBe(1000);
    expect(firstThrill({ shared: true, is_verified: false })).toBe(0);
    expect(firstThrill({ shared: false, is_verified: true })).toBe(0);
    expect(totalPrize({ shared: true, is_verified: true, prize: 5000, coupon_amount: 20000 })).toBe(26000);
    expect(totalPrize({ shared: false, is_verified: true, prize: 5000, coupon_amount: null })).toBe(5000);
    expect(totalPrize({ shared: true, is_verified: true, prize: null })).toBe(1000);
    expect(prizeBreakdown({ shared: true, is_verified: true, prize: 7000, coupon_amount: 0 })).toEqual({
      first: 1000,
      second: 7000,
      third: 0,
      total: 8000,
    });
  });

  it("totals a drawn entry from its stored prizes", () => {
    clearBaseTables();
    const branch = makeBranch();
    pool({ type: "registration_branch", branch_id: branch.id, amount: 20000, probability: 100 });
    const reg = makeRegistration(branch.id, { shared: true });
    const pre = db.select().from(preregistrations).where(eq(preregistrations.id, reg.preregistration_id)).get()!;
    db.update(preregistrations).set({ shared: true }).where(eq(preregistrations.id, pre.id)).run();
    drawSecondThrill(pre.id, { now: AT, random: seq(0) }); // branch entry without branch pools: base table, 4000
    drawThirdThrill(reg.id, { now: AT, random: seq(0.5) });
    const p = db.select().from(preregistrations).where(eq(preregistrations.id, pre.id)).get()!;
    const r = db.select().from(registrations).where(eq(registrations.id, reg.id)).get()!;
    expect(p.prize).toBe(4000);
    expect(r.coupon_amount).toBe(20000);
    expect(
      totalPrize({ shared: p.shared, is_verified: p.is_verified, prize: p.prize, coupon_amount: r.coupon_amount }),
    ).toBe(25000);
  });
});

describe("the pure draw", () => {
  const pools = [
    { id: 1, amount: 5000, count: 5, paid: 0, probability: 50 },
    { id: 2, amount: 10000, count: 1, paid: 0, probability: 50 },
    { id: 3, amount: 10000, count: 2, paid: 2, probability: 50 },
    { id: 4, amount: 20000, count: 3, paid: 1, probability: 50 },
    { id: 0, amount: 10000, count: 1, paid: 0, probability: 50 },
  ];

  it("orders pools highest amount first, ties by lower id, and leaves out the exhausted ones", () => {
    expect(orderPools(pools).map((p) => p.id)).toEqual([4, 0, 2, 1]);
  });

  it("rolls once per pool in that order and stops at the first win", () => {
    const r = rollPools(pools, seq(0.9, 0.5, 0.49));
    expect(r.winner?.id).toBe(2);
    expect(r.rolls.map((x) => [x.allocation_id, x.value, x.win])).toEqual([
      [4, 0.9, false],
      [0, 0.5, false],
      [2, 0.49, true],
    ]);
    const none = rollPools(pools, seq(0.5, 0.6, 0.7, 0.8));
    expect(none.winner).toBeNull();
    expect(none.rolls).toHaveLength(4);
  });

  it("wins only strictly below the probability: 0 never wins, 100 always does", () => {
    const one = (probability: number, value: number) =>
      rollPools([{ id: 1, amount: 4000, count: 1, paid: 0, probability }], seq(value)).winner !== null;
    expect(one(30, 0.3)).toBe(false);
    expect(one(30, 0.29999999)).toBe(true);
    expect(one(30, 0.30000001)).toBe(false);
    expect(one(0, 0)).toBe(false);
    expect(one(100, 0.9999999999)).toBe(true);
    expect(one(1, 0.0099)).toBe(true);
    expect(one(1, 0.01)).toBe(false);
  });

  it("picks from a weighted table by cumulative weight", () => {
    const table = [
      { amount: 4000, weight: 1 },
      { amount: 5000, weight: 3 },
    ];
    expect(pickWeighted(table, 0)?.amount).toBe(4000);
    expect(pickWeighted(table, 0.2499)?.amount).toBe(4000);
    expect(pickWeighted(table, 0.25)?.amount).toBe(5000);
    expect(pickWeighted(table, 0.9999)?.amount).toBe(5000);
    expect(pickWeighted([], 0.5)).toBeNull();
  });
});

describe("second thrill", () => {
  it("takes pools highest amount first and records every roll", () => {
    clearBaseTables();
    const low = pool({ amount: 5000, probability: 50 });
    const highA = pool({ amount: 10000, probability: 50 });
    const highB = pool({ amount: 10000, probability: 50 });
    const entry = verified();
    const random = seq(0.9, 0.5, 0.2);
    const r = drawSecondThrill(entry.id, { now: AT, random });
    expect(random.used()).toBe(3);
    expect(r).toMatchObject({ amount: 5000, outcome: "pool", allocation_id: low.id, created: true });
    const audit = parseDrawAudit(r.draw);
    expect(audit.pools.map((p) => p.id)).toEqual([highA.id, highB.id, low.id]);
    expect(audit.pools[0]).toMatchObject({ remaining: 5, probability: 50, count: 5, paid: 0 });
    expect((audit.rolls as PoolRoll[]).map((x) => [x.allocation_id, x.value, x.win])).toEqual([
      [highA.id, 0.9, false],
      [highB.id, 0.5, false],
      [low.id, 0.2, true],
    ]);
    expect(r.draw).toMatchObject({
      thrill: 2,
      entry_type: "preregistration",
      pool_type: "preregistration_public",
      date: DATE,
    });
    expect(paidOf(low.id)).toBe(1);
    expect(paidOf(highA.id)).toBe(0);
    expect(db.select().from(preregistrations).where(eq(preregistrations.id, entry.id)).get()!.prize).toBe(5000);
    // The pools of this test are spent so the next tests of this file start clean.
    db.update(allocations).set({ paid: allocations.count }).run();
  });

  it("loses a pool when the roll is exactly at the probability, wins just below it", () => {
    clearBaseTables();
    const at = new Date("2026-12-01T06:00:00Z");
    const p = pool({ date: "2026-12-01", amount: 12000, probability: 30 });
    const atBoundary = drawSecondThrill(verified().id, { now: at, random: seq(0.3, 0) });
    expect(atBoundary).toMatchObject({ outcome: "fallback", amount: 4000, allocation_id: null });
    const above = drawSecondThrill(verified().id, { now: at, random: seq(0.30000001, 0.99) });
    expect(above).toMatchObject({ outcome: "fallback", amount: 7000 });
    const below = drawSecondThrill(verified().id, { now: at, random: seq(0.29999999) });
    expect(below).toMatchObject({ outcome: "pool", amount: 12000, allocation_id: p.id });
    expect(paidOf(p.id)).toBe(1);
  });

  it("falls back to the default base table (4000 to 7000, equally likely) and to a table set in settings", () => {
    clearBaseTables();
    const at = new Date("2026-12-02T06:00:00Z"); // no pools that day
    expect(getBaseTable("second")).toEqual(DEFAULT_BASE_TABLES.second);
    const amounts = [0, 0.2499, 0.25, 0.5, 0.75, 0.9999].map(
      (v) => drawSecondThrill(verified().id, { now: at, random: seq(v) }).amount,
    );
    expect(amounts).toEqual([4000, 4000, 5000, 6000, 7000, 7000]);

    setBaseTable(SYSTEM_ACTOR, "second", [
      { amount: 8000, weight: 1 },
      { amount: 9000, weight: 3 },
    ]);
    const r = drawSecondThrill(verified().id, { now: at, random: seq(0.2) });
    expect(r).toMatchObject({ outcome: "fallback", amount: 8000 });
    expect(parseDrawAudit(r.draw).rolls).toEqual([{ stage: "base", table: "second", value: 0.2, amount: 8000 }]);
    expect(drawSecondThrill(verified().id, { now: at, random: seq(0.25) }).amount).toBe(9000);
    clearBaseTables();
  });

  it("ignores pools of another branch, date or type, and skips a pool that has paid its count", () => {
    clearBaseTables();
    const day = "2026-12-03";
    const at = new Date("2026-12-03T06:00:00Z");
    const mine = makeBranch();
    const other = makeBranch();
    pool({ date: day, type: "preregistration_branch", branch_id: other.id, amount: 50000 });
    pool({ date: day, type: "preregistration_public", amount: 20000 });
    pool({ date: "2026-12-04", type: "preregistration_branch", branch_id: mine.id, amount: 50000 });
    pool({ date: day, type: "registration_branch", branch_id: mine.id, amount: 100000 });
    const full = pool({
      date: day,
      type: "preregistration_branch",
      branch_id: mine.id,
      amount: 18000,
      count: 2,
      paid: 2,
    });
    const open = pool({ date: day, type: "preregistration_branch", branch_id: mine.id, amount: 9000, count: 1 });

    const r = drawSecondThrill(verified({ branch_id: mine.id }).id, { now: at, random: seq(0.99) });
    expect(r).toMatchObject({ outcome: "pool", amount: 9000, allocation_id: open.id });
    expect(r.draw).toMatchObject({ pool_type: "preregistration_branch", branch_id: mine.id });
    expect(parseDrawAudit(r.draw).pools.map((p) => p.id)).toEqual([open.id]);
    expect(paidOf(full.id)).toBe(2);

    // The branch's only pool is now spent: the next entry gets the base table.
    const next = drawSecondThrill(verified({ branch_id: mine.id }).id, { now: at, random: seq(0.6) });
    expect(next).toMatchObject({ outcome: "fallback", amount: 6000 });
    expect(parseDrawAudit(next.draw).pools).toEqual([]);

    // A public entry only sees the public pool of its day.
    const pub = drawSecondThrill(verified().id, { now: at, random: seq(0.5) });
    expect(pub).toMatchObject({ outcome: "pool", amount: 20000 });
  });

  it("takes the pools of the Kathmandu date, not the UTC one", () => {
    clearBaseTables();
    const p = pool({ date: "2026-12-06", amount: 15000 });
    pool({ date: "2026-12-05", amount: 16000 });
    // 18:20 UTC on the 5th is 00:05 on the 6th in Kathmandu.
    const r = drawSecondThrill(verified().id, { now: new Date("2026-12-05T18:20:00Z"), random: seq(0) });
    expect(r).toMatchObject({ allocation_id: p.id, amount: 15000 });
    expect(r.draw.date).toBe("2026-12-06");
  });

  it("draws an entry once: a second call returns the same draw and writes nothing", () => {
    clearBaseTables();
    const p = pool({ date: "2026-12-07", amount: 11000, probability: 50 });
    const entry = verified();
    const first = drawSecondThrill(entry.id, { now: new Date("2026-12-07T06:00:00Z"), random: seq(0.1) });
    const again = drawSecondThrill(entry.id, { now: new Date("2026-12-07T07:00:00Z"), random: seq() });
    expect(first.created).toBe(true);
    expect(again.created).toBe(false);
    expect(again.draw).toEqual(first.draw);
    expect(again).toMatchObject({ amount: 11000, outcome: "pool", allocation_id: p.id });
    expect(drawCount("preregistration", entry.id)).toBe(1);
    expect(paidOf(p.id)).toBe(1);
    expect(getDraw("preregistration", entry.id)).toEqual(first.draw);
    expect(getDraw("preregistration", entry.id + 100000)).toBeNull();
  });

  it("refuses an unverified or missing pre-registration", () => {
    const entry = makePreregistration();
    expect(() => drawSecondThrill(entry.id, { now: AT, random: seq(0) })).toThrow(DrawError);
    expect(() => drawSecondThrill(entry.id, { now: AT })).toThrow(
      expect.objectContaining({ code: "not_verified", message: DRAW_MESSAGES.notVerified }),
    );
    expect(drawCount("preregistration", entry.id)).toBe(0);
    expect(db.select().from(preregistrations).where(eq(preregistrations.id, entry.id)).get()!.prize).toBeNull();
    expect(() => drawSecondThrill(999999, { now: AT })).toThrow(expect.objectContaining({ code: "not_found" }));
  });
});

describe("third thrill", () => {
  it("gives no coupon (0, 'none') when no pool pays and no base table is set", () => {
    clearBaseTables();
    const branch = makeBranch();
    const p = pool({ type: "registration_branch", branch_id: branch.id, amount: 20000, probability: 40 });
    const reg = makeRegistration(branch.id);
    const random = seq(0.4);
    const r = drawThirdThrill(reg.id, { now: AT, random });
    expect(random.used()).toBe(1);
    expect(r).toMatchObject({ amount: 0, outcome: "none", allocation_id: null, created: true });
    expect(r.draw).toMatchObject({
      thrill: 3,
      entry_type: "registration",
      pool_type: "registration_branch",
      branch_id: branch.id,
    });
    expect(paidOf(p.id)).toBe(0);
    const row = db.select().from(registrations).where(eq(registrations.id, reg.id)).get()!;
    expect(row).toMatchObject({ status: "drawn", coupon_amount: 0 });
    // Drawn already: the same answer again.
    expect(drawThirdThrill(reg.id, { now: AT, random: seq() }).draw).toEqual(r.draw);
    expect(drawCount("registration", reg.id)).toBe(1);
  });

  it("wins its branch's registration pool, or the third-thrill base table when one is set", () => {
    clearBaseTables();
    const branch = makeBranch();
    const p = pool({ type: "registration_branch", branch_id: branch.id, amount: 100000, count: 1, probability: 10 });
    const winner = drawThirdThrill(makeRegistration(branch.id).id, { now: AT, random: seq(0.05) });
    expect(winner).toMatchObject({ amount: 100000, outcome: "pool", allocation_id: p.id });

    setBaseTable(SYSTEM_ACTOR, "third", [
      { amount: 1000, weight: 2 },
      { amount: 2000, weight: 2 },
    ]);
    const fallback = drawThirdThrill(makeRegistration(branch.id).id, { now: AT, random: seq(0.75) });
    expect(fallback).toMatchObject({ amount: 2000, outcome: "fallback" });
    expect(parseDrawAudit(fallback.draw).pools).toEqual([]); // the only pool is spent
    clearBaseTables();
  });

  it("refuses a registration that is not confirmed", () => {
    const branch = makeBranch();
    const reg = makeRegistration(branch.id, { status: "pending" });
    expect(() => drawThirdThrill(reg.id, { now: AT })).toThrow(expect.objectContaining({ code: "not_confirmed" }));
    expect(drawCount("registration", reg.id)).toBe(0);
    const deleted = makeRegistration(branch.id, { deleted_at: AT.toISOString() });
    expect(() => drawThirdThrill(deleted.id, { now: AT })).toThrow(expect.objectContaining({ code: "not_found" }));
  });
});

describe("base table settings", () => {
  it("validates amounts (positive integers) and weights (positive)", () => {
    const bad = (kind: "second" | "third", rows: unknown) => {
      const result = setBaseTable(SYSTEM_ACTOR, kind, rows);
      if (result.ok) throw new Error("accepted");
      expect(result.code).toBe("invalid");
      return result.errors;
    };
    expect(bad("second", [{ amount: 0, weight: 1 }])).toHaveProperty(["rows.0.amount"]);
    expect(bad("second", [{ amount: 4000.5, weight: 1 }])).toHaveProperty(["rows.0.amount"]);
    expect(
      bad("second", [
        { amount: 4000, weight: 1 },
        { amount: 5000, weight: 0 },
      ]),
    ).toHaveProperty(["rows.1.weight"]);
    expect(bad("second", [])).toEqual({ rows: ["The second-thrill base table needs at least one row."] });
    expect(bad("third", "nope")).toHaveProperty("rows");
    expect(setBaseTable(SYSTEM_ACTOR, "third", [])).toMatchObject({ ok: true, rows: [] });
    expect(getBaseTable("third")).toEqual([]);
    expect(setBaseTable(SYSTEM_ACTOR, "second", [{ amount: "4500", weight: "0.5" }])).toMatchObject({
      ok: true,
      rows: [{ amount: 4500, weight: 0.5 }],
    });
    expect(getBaseTable("second")).toEqual([{ amount: 4500, weight: 0.5 }]);
    clearBaseTables();
    expect(getBaseTable("second")).toEqual(DEFAULT_BASE_TABLES.second);
  });
});

describe("the audit list", () => {
  it("filters draws by date, pool type, branch and outcome and pages them", () => {
    const params = { start: 0, length: 100, search: "", order: [] };
    const all = listDraws(HEAD_OFFICE, params);
    expect(all.recordsTotal).toBeGreaterThan(10);
    const pools = listDraws(HEAD_OFFICE, params, { outcome: "pool" });
    expect(pools.data.length).toBeGreaterThan(0);
    expect(pools.data.every((d) => d.outcome === "pool" && d.allocation_id !== null)).toBe(true);
    const dec = listDraws(HEAD_OFFICE, params, { from: "2026-12-01", to: "2026-12-03" });
    expect(dec.data.length).toBeGreaterThan(0);
    expect(dec.data.every((d) => d.date >= "2026-12-01" && d.date <= "2026-12-03")).toBe(true);
    const regs = listDraws(HEAD_OFFICE, params, { pool_type: "registration_branch" });
    expect(regs.data.every((d) => d.thrill === 3 && d.entry?.slug.startsWith("reg-"))).toBe(true);
    const one = regs.data[0];
    const byBranch = listDraws(HEAD_OFFICE, params, { branch_id: one.branch_id });
    expect(byBranch.data.every((d) => d.branch_id === one.branch_id && d.branch?.title)).toBe(true);
    const page = listDraws(HEAD_OFFICE, { start: 2, length: 3, search: "", order: [{ column: "id", dir: "asc" }] });
    expect(page.data).toHaveLength(3);
    expect(page.data[0].id).toBeLessThan(page.data[1].id);
    expect(page.data[0].rolls).toBeInstanceOf(Array);
    const scoped = listDraws({ branchId: one.branch_id }, params, {});
    expect(scoped.recordsTotal).toBe(byBranch.recordsFiltered);
  });
});
