import { parseWithZod } from "@conform-to/zod/v4";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { makeBranch, makePreregistration } from "../../tests/fixtures";
import { ALLOCATION_MESSAGES, allocationSchema } from "~/schemas/allocation";
import {
  AllocationError,
  createAllocation,
  deleteAllocation,
  expectedPoolWins,
  getAllocation,
  listAllocations,
  payoutPreview,
  updateAllocationCount,
} from "./allocation.server";
import { drawSecondThrill, rollPools } from "./prize-draw.server";

const { allocations } = schema;

function form(values: Record<string, string>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(values)) fd.append(k, v);
  return fd;
}

const valid = {
  type: "preregistration_public",
  branch_id: "",
  date: "2026-11-21",
  amount: "4000",
  count: "1",
  probability: "10",
};

/** The field errors of a form submission, or null when it parses. */
function errorsOf(values: Record<string, string>) {
  const submission = parseWithZod(form({ ...valid, ...values }), { schema: allocationSchema });
  return submission.status === "success" ? null : submission.error;
}

function caught(fn: () => unknown): AllocationError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AllocationError);
    return err as AllocationError;
  }
  throw new Error("no error thrown");
}

const paging = { start: 0, length: 10, search: "", order: [] };

describe("allocation form schema", () => {
  it("parses a valid form, with count 1 and probability 0 by default", () => {
    const submission = parseWithZod(
      form({ type: "preregistration_public", date: "2026-11-21", amount: "50000", count: "", probability: "" }),
      {
        schema: allocationSchema,
      },
    );
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value).toEqual({
      type: "preregistration_public",
      date: "2026-11-21",
      amount: 50000,
      count: 1,
      probability: 0,
    });
  });

  it("puts the count error under count", () => {
    expect(errorsOf({ count: "6" })).toEqual({ count: [ALLOCATION_MESSAGES.count] });
    expect(errorsOf({ count: "0" })).toEqual({ count: ["The count must be between 1 and 5."] });
    expect(errorsOf({ count: "2.5" })).toEqual({ count: [ALLOCATION_MESSAGES.count] });
  });

  it("puts the probability error under probability", () => {
    expect(errorsOf({ probability: "101" })).toEqual({ probability: [ALLOCATION_MESSAGES.probability] });
    expect(errorsOf({ probability: "-1" })).toEqual({ probability: [ALLOCATION_MESSAGES.probability] });
    expect(errorsOf({ probability: "100" })).toBeNull();
  });

  it("accepts only the amounts of the type's list", () => {
    expect(errorsOf({ amount: "1000" })).toEqual({ amount: [ALLOCATION_MESSAGES.amountNotInList] });
    expect(errorsOf({ amount: "100000" })).toEqual({ amount: [ALLOCATION_MESSAGES.amountNotInList] });
    expect(errorsOf({ amount: "19000" })).toEqual({ amount: [ALLOCATION_MESSAGES.amountNotInList] });
    expect(errorsOf({ amount: "" })).toEqual({ amount: [ALLOCATION_MESSAGES.amountRequired] });
    expect(errorsOf({ type: "registration_branch", branch_id: "1", amount: "100000" })).toBeNull();
    expect(errorsOf({ type: "registration_branch", branch_id: "1", amount: "1000" })).toBeNull();
    expect(errorsOf({ type: "registration_branch", branch_id: "1", amount: "18000" })).toEqual({
      amount: [ALLOCATION_MESSAGES.amountNotInList],
    });
  });

  it("wants a branch for the branch types and none for the public type", () => {
    expect(errorsOf({ type: "preregistration_branch", branch_id: "" })).toEqual({
      branch_id: [ALLOCATION_MESSAGES.branchRequired],
    });
    expect(errorsOf({ type: "registration_branch", branch_id: "", amount: "1000" })).toEqual({
      branch_id: [ALLOCATION_MESSAGES.branchRequired],
    });
    expect(errorsOf({ type: "preregistration_public", branch_id: "3" })).toEqual({
      branch_id: [ALLOCATION_MESSAGES.branchForbidden],
    });
    expect(errorsOf({ type: "preregistration_branch", branch_id: "3" })).toBeNull();
  });

  it("checks type and date, and reports every field at once", () => {
    expect(errorsOf({ type: "lottery" })).toEqual({ type: [ALLOCATION_MESSAGES.type] });
    expect(errorsOf({ date: "2026-02-30" })).toEqual({ date: [ALLOCATION_MESSAGES.date] });
    expect(errorsOf({ date: "21/11/2026" })).toEqual({ date: [ALLOCATION_MESSAGES.date] });
    expect(
      errorsOf({ type: "registration_branch", branch_id: "", amount: "4000.5", count: "6", probability: "101" }),
    ).toEqual({
      branch_id: [ALLOCATION_MESSAGES.branchRequired],
      amount: [ALLOCATION_MESSAGES.amountNotInList],
      count: [ALLOCATION_MESSAGES.count],
      probability: [ALLOCATION_MESSAGES.probability],
    });
  });

  it("parses JSON payloads with numbers or strings alike", () => {
    expect(
      allocationSchema.parse({
        type: "registration_branch",
        branch_id: 4,
        date: "2026-11-21",
        amount: 20000,
        count: 5,
        probability: 100,
      }),
    ).toEqual({
      type: "registration_branch",
      branch_id: 4,
      date: "2026-11-21",
      amount: 20000,
      count: 5,
      probability: 100,
    });
    expect(allocationSchema.safeParse({ ...valid, branch_id: null, count: "6" }).success).toBe(false);
  });
});

describe("allocations", () => {
  it("creates, lists with branch title, paid and remaining, and filters", () => {
    const branch = makeBranch({ title: "Lalitpur Motors" });
    const a = createAllocation({ ...valid, date: "2026-10-01", amount: "4000", count: "3" }, null);
    const b = createAllocation(
      {
        type: "registration_branch",
        branch_id: String(branch.id),
        date: "2026-10-01",
        amount: "100000",
        count: "2",
        probability: "5",
      },
      null,
    );
    const c = createAllocation(
      {
        type: "preregistration_branch",
        branch_id: branch.id,
        date: "2026-10-02",
        amount: 50000,
        count: 1,
        probability: 0,
      },
      null,
    );
    expect(a).toMatchObject({
      type: "preregistration_public",
      branch_id: null,
      amount: 4000,
      count: 3,
      probability: 10,
      paid: 0,
    });

    const all = listAllocations(paging);
    expect(all.recordsTotal).toBe(3);
    // Newest date first, then highest amount.
    expect(all.data.map((r) => r.id)).toEqual([c.id, b.id, a.id]);
    expect(all.data[0]).toMatchObject({ branch: { id: branch.id, title: "Lalitpur Motors" }, paid: 0, remaining: 1 });
    expect(all.data[2]).toMatchObject({ branch: null, remaining: 3 });

    expect(listAllocations(paging, { type: "registration_branch" }).data.map((r) => r.id)).toEqual([b.id]);
    expect(listAllocations(paging, { branch_id: branch.id }).data.map((r) => r.id)).toEqual([c.id, b.id]);
    const byDate = listAllocations(paging, { date: "2026-10-01" });
    expect(byDate).toMatchObject({ recordsTotal: 3, recordsFiltered: 2 });
    expect(listAllocations({ ...paging, search: "Lalitpur" }).data.map((r) => r.id)).toEqual([c.id, b.id]);
    expect(listAllocations({ ...paging, search: "1,00,000" }).data.map((r) => r.id)).toEqual([b.id]);
    expect(listAllocations({ ...paging, order: [{ column: "amount", dir: "asc" }] }).data.map((r) => r.amount)).toEqual(
      [4000, 50000, 100000],
    );
    expect(listAllocations({ ...paging, start: 1, length: 1 }).data.map((r) => r.id)).toEqual([b.id]);
    expect(listAllocations(paging, {}, { branchId: branch.id }).recordsTotal).toBe(2);

    for (const r of [a, b, c]) deleteAllocation(r.id);
    expect(listAllocations(paging).recordsTotal).toBe(0);
  });

  it("refuses invalid input and a branch that does not exist", () => {
    const invalid = caught(() => createAllocation({ ...valid, count: "6", amount: "1000" }, null));
    expect(invalid.code).toBe("invalid");
    expect(invalid.fieldErrors).toEqual({
      count: [ALLOCATION_MESSAGES.count],
      amount: [ALLOCATION_MESSAGES.amountNotInList],
    });
    const noBranch = caught(() =>
      createAllocation({ ...valid, type: "preregistration_branch", branch_id: "999999" }, null),
    );
    expect(noBranch.fieldErrors).toEqual({ branch_id: ["Choose a branch from the list."] });
    const deletedBranch = makeBranch({ deleted_at: "2026-01-01T00:00:00Z" });
    expect(
      caught(() => createAllocation({ ...valid, type: "preregistration_branch", branch_id: deletedBranch.id }, null))
        .code,
    ).toBe("invalid");
    expect(listAllocations(paging).recordsTotal).toBe(0);
  });

  it("refuses to delete a pool that has paid out, or to lower it below what it paid", () => {
    const p = createAllocation({ ...valid, date: "2026-10-05", amount: "9000", count: "3", probability: "100" }, null);
    const at = new Date("2026-10-05T06:00:00Z");
    for (let i = 0; i < 2; i++) {
      drawSecondThrill(makePreregistration({ is_verified: true, status: "verified" }).id, { now: at, random: () => 0 });
    }
    expect(getAllocation(p.id)!.paid).toBe(2);

    const del = caught(() => deleteAllocation(p.id));
    expect(del.code).toBe("paid");
    expect(del.message).toBe("This scheme has already paid out 2 prizes and can no longer be deleted.");
    expect(getAllocation(p.id)).not.toBeNull();

    const lower = caught(() => updateAllocationCount(p.id, 1));
    expect(lower.code).toBe("below_paid");
    expect(lower.fieldErrors).toEqual({ count: ["The count cannot be lower than the 2 prizes already paid out."] });
    expect(updateAllocationCount(p.id, "2")).toMatchObject({ count: 2, paid: 2 });
    expect(updateAllocationCount(p.id, 5)).toMatchObject({ count: 5 });
    expect(caught(() => updateAllocationCount(p.id, 6)).fieldErrors).toEqual({ count: [ALLOCATION_MESSAGES.count] });
    expect(caught(() => updateAllocationCount(999999, 3)).code).toBe("not_found");
    expect(caught(() => deleteAllocation(999999)).code).toBe("not_found");

    // Spent the pools of this test so later tests start clean.
    db.update(allocations).set({ paid: allocations.count }).where(eq(allocations.id, p.id)).run();
  });
});

describe("payout preview", () => {
  it("gives the exact expectation on a hand-computable case", () => {
    const date = "2026-10-10";
    const branch = makeBranch();
    // Public: 10000 x2 always wins, then 8000 x1 at 50%.
    createAllocation({ ...valid, date, amount: "10000", count: "2", probability: "100" }, null);
    createAllocation({ ...valid, date, amount: "8000", count: "1", probability: "50" }, null);
    // Branch registrations: one 20000 pool at 10%.
    createAllocation(
      { type: "registration_branch", branch_id: branch.id, date, amount: "20000", count: "5", probability: "10" },
      null,
    );

    const preview = payoutPreview({ date, branchId: branch.id, entries: 3 });
    const pub = preview.types.find((t) => t.type === "preregistration_public")!;
    // Entries 1 and 2 take the 10000 prizes; entry 3 reaches the 8000 pool and wins half the time.
    expect(pub.pools.map((p) => [p.amount, p.expectedWinners, p.expectedCost])).toEqual([
      [10000, 2, 20000],
      [8000, 0.5, 4000],
    ]);
    expect(pub.expectedFallbackEntries).toBeCloseTo(0.5, 12);
    expect(pub.fallbackMean).toBe(5500); // default base table 4000..7000
    expect(pub.expectedFallbackCost).toBeCloseTo(2750, 9);
    expect(pub.expectedTotalCost).toBeCloseTo(26750, 9);

    const reg = preview.types.find((t) => t.type === "registration_branch")!;
    // Five prizes for three entries never run out: each entry wins with 10%.
    expect(reg.pools[0].expectedWinners).toBeCloseTo(0.3, 12);
    expect(reg.expectedPoolCost).toBeCloseTo(6000, 9);
    expect(reg.expectedFallbackCost).toBe(0); // no third-thrill base table: no coupon

    const preBranch = preview.types.find((t) => t.type === "preregistration_branch")!;
    expect(preBranch.pools).toEqual([]);
    expect(preBranch.expectedFallbackCost).toBe(3 * 5500);
    expect(preview.expectedTotalCost).toBeCloseTo(26750 + 6000 + 16500, 9);

    // Without a branch only the public pools are previewed.
    expect(payoutPreview({ date, branchId: null, entries: 3 }).types.map((t) => t.type)).toEqual([
      "preregistration_public",
    ]);
  });

  it("counts only the prizes left, and one pool of count 1 at 50% for 2 entries pays 0.75", () => {
    const single = expectedPoolWins([{ id: 1, amount: 5000, count: 1, paid: 0, probability: 50 }], 2);
    expect(single.pools[0].expectedWinners).toBeCloseTo(0.75, 12);
    expect(single.expectedFallbackEntries).toBeCloseTo(1.25, 12);
    const partlyPaid = expectedPoolWins([{ id: 1, amount: 5000, count: 3, paid: 2, probability: 100 }], 5);
    expect(partlyPaid.pools[0].expectedWinners).toBe(1);
    expect(partlyPaid.expectedFallbackEntries).toBe(4);
    expect(expectedPoolWins([{ id: 1, amount: 5000, count: 2, paid: 2, probability: 100 }], 5).pools).toEqual([]);
  });

  it("agrees with a seeded simulation of the draw itself", () => {
    const pools = [
      { id: 1, amount: 20000, count: 2, paid: 0, probability: 10 },
      { id: 2, amount: 10000, count: 5, paid: 1, probability: 30 },
      { id: 3, amount: 10000, count: 3, paid: 0, probability: 60 },
      { id: 4, amount: 5000, count: 5, paid: 0, probability: 20 },
    ];
    const entries = 25;
    const exact = expectedPoolWins(pools, entries);

    let seed = 12345;
    const random = () => {
      // mulberry32
      seed = (seed + 0x6d2b79f5) | 0;
      let t = seed;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const runs = 20000;
    const wins = new Map<number, number>();
    let fallback = 0;
    for (let run = 0; run < runs; run++) {
      const state = pools.map((p) => ({ ...p }));
      for (let e = 0; e < entries; e++) {
        const { winner } = rollPools(state, random);
        if (winner) {
          winner.paid += 1;
          wins.set(winner.id, (wins.get(winner.id) ?? 0) + 1);
        } else fallback += 1;
      }
    }
    for (const { pool, expectedWinners } of exact.pools) {
      expect((wins.get(pool.id) ?? 0) / runs).toBeCloseTo(expectedWinners, 1);
    }
    expect(fallback / runs).toBeCloseTo(exact.expectedFallbackEntries, 1);
  });
});
