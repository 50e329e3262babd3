import { parseWithZod } from "@conform-to/zod/v4";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { makeBranch, makePreregistration } from "../../tests/fixtures";
import { ALLOCATION_MESSAGES, allocationSchema } from "~/schemas/allocation";
import { SYSTEM_ACTOR, type ScopedActor } from "~/models/scope.server";
import type { Failure } from "~/utils/failure";
import {
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

const HQ = SYSTEM_ACTOR;

/** Parses like the form and the API do, then creates; the Result. */
function attempt(values: Record<string, unknown>, actor: ScopedActor = HQ) {
  const parsed = allocationSchema.safeParse(values);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const i of parsed.error.issues) (errors[i.path.join(".")] ??= []).push(i.message);
    return { ok: false as const, code: "invalid" as const, errors };
  }
  return createAllocation(actor, parsed.data);
}

/** Creates a pool that must be valid. */
function create(values: Record<string, unknown>, actor: ScopedActor = HQ) {
  const result = attempt(values, actor);
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result.allocation;
}

/** The Failure of a Result that must have failed. */
function failed<T extends object>(
  result: ({ ok: true } & T) | Failure | { ok: false; code: string; errors: Record<string, string[]> },
) {
  expect(result.ok).toBe(false);
  return result as Failure;
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
    const a = create({ ...valid, date: "2026-10-01", amount: "4000", count: "3" });
    const b = create({
      type: "registration_branch",
      branch_id: String(branch.id),
      date: "2026-10-01",
      amount: "100000",
      count: "2",
      probability: "5",
    });
    const c = create({
      type: "preregistration_branch",
      branch_id: branch.id,
      date: "2026-10-02",
      amount: 50000,
      count: 1,
      probability: 0,
    });
    expect(a).toMatchObject({
      type: "preregistration_public",
      branch_id: null,
      amount: 4000,
      count: 3,
      probability: 10,
      paid: 0,
    });

    const all = listAllocations(HQ.scope, paging);
    expect(all.recordsTotal).toBe(3);
    // Newest date first, then highest amount.
    expect(all.data.map((r) => r.id)).toEqual([c.id, b.id, a.id]);
    expect(all.data[0]).toMatchObject({ branch: { id: branch.id, title: "Lalitpur Motors" }, paid: 0, remaining: 1 });
    expect(all.data[2]).toMatchObject({ branch: null, remaining: 3 });

    expect(listAllocations(HQ.scope, paging, { type: "registration_branch" }).data.map((r) => r.id)).toEqual([b.id]);
    expect(listAllocations(HQ.scope, paging, { branch_id: branch.id }).data.map((r) => r.id)).toEqual([c.id, b.id]);
    const byDate = listAllocations(HQ.scope, paging, { date: "2026-10-01" });
    expect(byDate).toMatchObject({ recordsTotal: 3, recordsFiltered: 2 });
    expect(listAllocations(HQ.scope, { ...paging, search: "Lalitpur" }).data.map((r) => r.id)).toEqual([c.id, b.id]);
    expect(listAllocations(HQ.scope, { ...paging, search: "1,00,000" }).data.map((r) => r.id)).toEqual([b.id]);
    expect(
      listAllocations(HQ.scope, { ...paging, order: [{ column: "amount", dir: "asc" }] }).data.map((r) => r.amount),
    ).toEqual([4000, 50000, 100000]);
    expect(listAllocations(HQ.scope, { ...paging, start: 1, length: 1 }).data.map((r) => r.id)).toEqual([b.id]);
    expect(listAllocations({ branchId: branch.id }, paging, {}).recordsTotal).toBe(2);

    for (const r of [a, b, c]) expect(deleteAllocation(HQ, r.id).ok).toBe(true);
    expect(listAllocations(HQ.scope, paging).recordsTotal).toBe(0);
  });

  it("refuses invalid input and a branch that does not exist", () => {
    const invalid = failed(attempt({ ...valid, count: "6", amount: "1000" }));
    expect(invalid.code).toBe("invalid");
    expect(invalid.errors).toEqual({
      count: [ALLOCATION_MESSAGES.count],
      amount: [ALLOCATION_MESSAGES.amountNotInList],
    });
    const noBranch = failed(attempt({ ...valid, type: "preregistration_branch", branch_id: "999999" }));
    expect(noBranch.errors).toEqual({ branch_id: ["Choose a branch from the list."] });
    const deletedBranch = makeBranch({ deleted_at: "2026-01-01T00:00:00Z" });
    expect(failed(attempt({ ...valid, type: "preregistration_branch", branch_id: deletedBranch.id })).code).toBe(
      "invalid",
    );
    expect(listAllocations(HQ.scope, paging).recordsTotal).toBe(0);
  });

  it("refuses to delete a pool that has paid out, or to lower it below what it paid", () => {
    const p = create({ ...valid, date: "2026-10-05", amount: "9000", count: "3", probability: "100" });
    const at = new Date("2026-10-05T06:00:00Z");
    for (let i = 0; i < 2; i++) {
      drawSecondThrill(makePreregistration({ is_verified: true, status: "verified" }).id, { now: at, random: () => 0 });
    }
    expect(getAllocation(HQ.scope, p.id)!.paid).toBe(2);

    const del = failed(deleteAllocation(HQ, p.id));
    expect(del.code).toBe("conflict");
    expect(del.message).toBe("This scheme has already paid out 2 prizes and can no longer be deleted.");
    expect(getAllocation(HQ.scope, p.id)).not.toBeNull();

    const lower = failed(updateAllocationCount(HQ, p.id, { count: 1 }));
    expect(lower.code).toBe("invalid");
    expect(lower.errors).toEqual({ count: ["The count cannot be lower than the 2 prizes already paid out."] });
    expect(updateAllocationCount(HQ, p.id, { count: 2 })).toMatchObject({ allocation: { count: 2, paid: 2 } });
    expect(updateAllocationCount(HQ, p.id, { count: 5 })).toMatchObject({ allocation: { count: 5 } });
    expect(failed(updateAllocationCount(HQ, 999999, { count: 3 })).code).toBe("not_found");
    expect(failed(deleteAllocation(HQ, 999999)).code).toBe("not_found");

    // Spent the pools of this test so later tests start clean.
    db.update(allocations).set({ paid: allocations.count }).where(eq(allocations.id, p.id)).run();
  });
});

describe("payout preview", () => {
  it("gives the exact expectation on a hand-computable case", () => {
    const date = "2026-10-10";
    const branch = makeBranch();
    // Public: 10000 x2 always wins, then 8000 x1 at 50%.
    create({ ...valid, date, amount: "10000", count: "2", probability: "100" });
    create({ ...valid, date, amount: "8000", count: "1", probability: "50" });
    // Branch registrations: one 20000 pool at 10%.
    create({ type: "registration_branch", branch_id: branch.id, date, amount: "20000", count: "5", probability: "10" });

    const preview = payoutPreview(HQ.scope, { date, branchId: branch.id, entries: 3 });
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
    expect(payoutPreview(HQ.scope, { date, branchId: null, entries: 3 }).types.map((t) => t.type)).toEqual([
      "preregistration_public",
    ]);
    // A branch user previews its own branch's pools only, whatever branch it asks for.
    const other = makeBranch();
    const own = payoutPreview({ branchId: other.id }, { date, branchId: branch.id, entries: 3 });
    expect(own.types.map((t) => [t.type, t.branch_id])).toEqual([
      ["preregistration_branch", other.id],
      ["registration_branch", other.id],
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

describe("branch scope inside the allocation queries", () => {
  it("a branch user cannot read, change or delete another branch's pool, nor a public one, nor create for another branch", () => {
    const mine = makeBranch();
    const theirs = makeBranch();
    const manager: ScopedActor = {
      id: null,
      email: "manager@example.test",
      address: "10.0.0.9",
      scope: { branchId: mine.id },
    };
    const date = "2026-10-20";
    const own = create({
      type: "registration_branch",
      branch_id: mine.id,
      date,
      amount: "5000",
      count: "2",
      probability: "10",
    });
    const other = create({
      type: "registration_branch",
      branch_id: theirs.id,
      date,
      amount: "5000",
      count: "2",
      probability: "10",
    });
    const pub = create({ ...valid, date });

    expect(getAllocation(manager.scope, own.id)?.id).toBe(own.id);
    for (const id of [other.id, pub.id]) {
      expect(getAllocation(manager.scope, id)).toBeNull();
      expect(failed(updateAllocationCount(manager, id, { count: 5 })).code).toBe("not_found");
      expect(failed(deleteAllocation(manager, id)).code).toBe("not_found");
    }
    expect(listAllocations(manager.scope, paging, { date }).data.map((r) => r.id)).toEqual([own.id]);
    expect(
      failed(attempt({ type: "registration_branch", branch_id: theirs.id, date, amount: "5000" }, manager)).errors,
    ).toEqual({
      branch_id: ["Choose a branch from the list."],
    });
    expect(failed(attempt({ ...valid, date }, manager)).errors).toHaveProperty("branch_id");
    // Untouched.
    expect(getAllocation(HQ.scope, other.id)).toMatchObject({ count: 2 });
    expect(getAllocation(HQ.scope, pub.id)).not.toBeNull();
    // Its own pool it may change and delete.
    expect(updateAllocationCount(manager, own.id, { count: 3 }).ok).toBe(true);
    expect(deleteAllocation(manager, own.id).ok).toBe(true);
    for (const r of [other, pub]) deleteAllocation(HQ, r.id);
  });

  it("each change writes its audit row in the same transaction; a refused change writes none", () => {
    const actor: ScopedActor = {
      id: null,
      email: "auditor@example.test",
      address: "10.0.0.7",
      scope: { branchId: null },
    };
    const rows = () =>
      db
        .select()
        .from(schema.auditLog)
        .all()
        .filter((r) => r.entity_type === "allocation" && r.user_email === actor.email);
    const p = create({ ...valid, date: "2026-10-21", amount: "5000", count: "2" }, actor);
    expect(updateAllocationCount(actor, p.id, { count: 4 }).ok).toBe(true);
    expect(failed(updateAllocationCount(actor, 999999, { count: 4 })).code).toBe("not_found");
    expect(deleteAllocation(actor, p.id).ok).toBe(true);
    const trail = rows();
    expect(trail.map((r) => r.action)).toEqual(["allocation.create", "allocation.count", "allocation.delete"]);
    expect(trail.every((r) => r.address === "10.0.0.7" && r.entity_id === String(p.id))).toBe(true);
    expect(JSON.parse(trail[1].changes)).toEqual({ count: { before: 2, after: 4 } });
    // The trail cannot be changed or deleted.
    expect(() => db.update(schema.auditLog).set({ action: "x" }).run()).toThrow(/audit trail cannot be changed/);
    expect(() => db.delete(schema.auditLog).run()).toThrow(/audit trail cannot be changed/);
  });
});
