/**
 * The draw's refusals and edges in one process (app/models/prize-draw.server.ts): which entries may be
 * drawn and what a refusal says, a drawn entry answering its first result, the weighted table's edges,
 * and the pools a draw considers (those with prizes left, each with its remaining count).
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { fail } from "~/utils/failure";
import {
  DRAW_MESSAGES,
  DrawError,
  drawSecondThrill,
  drawThirdThrill,
  getDraw,
  pickWeighted,
  poolsOf,
} from "~/models/prize-draw.server";
import { makeBranch, makePreregistration } from "../fixtures";
import { makeRegistration } from "../referral-fixtures";

const NOW = new Date("2031-05-05T06:00:00.000Z"); // 11:45 in Kathmandu
// Another day for the pools' test: a day's pools are fixed once its first draw commits its terms.
const POOL_DATE = "2031-05-07";
const POOL_AT = new Date("2031-05-07T06:00:00.000Z");

/** The DrawError a draw is refused with; any other error fails the test as it is. */
const refusal = async (run: () => unknown): Promise<DrawError> => {
  try {
    await run();
  } catch (err) {
    if (err instanceof DrawError) return err;
    throw err;
  }
  throw new Error("the draw was not refused");
};

describe("DrawError", () => {
  it("is a not-found failure for not_found, and a conflict for the others", () => {
    const missing = new DrawError("not_found", "Gone.");
    expect(missing.name).toBe("DrawError");
    expect(missing.failure).toEqual(fail.notFound("Gone."));
    for (const code of ["not_verified", "not_confirmed", "conflict"] as const) {
      expect(new DrawError(code, "No.").failure).toEqual(fail.conflict("No."));
    }
  });
});

describe("the second thrill", () => {
  it("refuses an entry that does not exist, is deleted, or is not verified, and says why", async () => {
    expect(await refusal(() => drawSecondThrill(987_654_321, { now: NOW }))).toMatchObject({
      code: "not_found",
      message: DRAW_MESSAGES.preregistrationNotFound,
    });
    const deleted = makePreregistration({ is_verified: true, deleted_at: NOW.toISOString() });
    expect(await refusal(() => drawSecondThrill(deleted.id, { now: NOW }))).toMatchObject({
      code: "not_found",
      message: DRAW_MESSAGES.preregistrationNotFound,
    });
    expect(getDraw("preregistration", deleted.id)).toBeNull();
    const unverified = makePreregistration({ is_verified: false });
    expect(await refusal(() => drawSecondThrill(unverified.id, { now: NOW }))).toMatchObject({
      code: "not_verified",
      message: DRAW_MESSAGES.notVerified,
    });
  });

  it("answers a drawn entry with its first result, even once the entry is deleted", async () => {
    const entry = makePreregistration({ is_verified: true });
    const first = await drawSecondThrill(entry.id, { now: NOW });
    expect(first.created).toBe(true);
    db.update(schema.preregistrations)
      .set({ deleted_at: NOW.toISOString() })
      .where(eq(schema.preregistrations.id, entry.id))
      .run();
    const again = await drawSecondThrill(entry.id, { now: NOW });
    expect(again).toMatchObject({ created: false, amount: first.amount, outcome: first.outcome });
    expect(again.draw.id).toBe(first.draw.id);
  });
});

describe("the third thrill", () => {
  it("refuses a registration that does not exist, is deleted, or is not confirmed, and says why", async () => {
    const branch = makeBranch().id;
    expect(await refusal(() => drawThirdThrill(987_654_321, { now: NOW }))).toMatchObject({
      code: "not_found",
      message: DRAW_MESSAGES.registrationNotFound,
    });
    const deleted = makeRegistration(branch, { status: "confirmed", deleted_at: NOW.toISOString() });
    expect(await refusal(() => drawThirdThrill(deleted.id, { now: NOW }))).toMatchObject({
      code: "not_found",
      message: DRAW_MESSAGES.registrationNotFound,
    });
    const pending = makeRegistration(branch, { status: "pending" });
    expect(await refusal(() => drawThirdThrill(pending.id, { now: NOW }))).toMatchObject({
      code: "not_confirmed",
      message: DRAW_MESSAGES.notConfirmed,
    });
    expect(getDraw("registration", pending.id)).toBeNull();
  });

  it("draws a confirmed registration once: the registration is marked drawn, and again answers the first result", async () => {
    const branch = makeBranch().id;
    const entry = makeRegistration(branch, { status: "confirmed" });
    const first = await drawThirdThrill(entry.id, { now: NOW });
    expect(first.created).toBe(true);
    const row = db.select().from(schema.registrations).where(eq(schema.registrations.id, entry.id)).get()!;
    expect(row).toMatchObject({ status: "drawn", coupon_amount: first.amount });
    const again = await drawThirdThrill(entry.id, { now: NOW });
    expect(again).toMatchObject({ created: false, amount: first.amount });
    expect(again.draw.id).toBe(first.draw.id);
  });
});

describe("the pools a draw considers", () => {
  it("are those with prizes left, each with its remaining count; the payout preview asks for the paid-out ones too", async () => {
    const branch = makeBranch().id;
    const insert = (amount: number, count: number, paid: number) =>
      db
        .insert(schema.allocations)
        .values({
          type: "registration_branch",
          branch_id: branch,
          date: POOL_DATE,
          amount,
          count,
          paid,
          probability: 0,
        })
        .returning()
        .get().id;
    const open = insert(5000, 3, 1);
    const done = insert(3000, 2, 2);
    expect(poolsOf(db, "registration_branch", branch, POOL_DATE).map((p) => p.id)).toEqual([open]);
    expect(
      poolsOf(db, "registration_branch", branch, POOL_DATE, { withPaidOut: true })
        .map((p) => p.id)
        .sort(),
    ).toEqual([open, done].sort());

    const result = await drawThirdThrill(makeRegistration(branch, { status: "confirmed" }).id, { now: POOL_AT });
    const pools = JSON.parse(result.draw.pools) as { id: number; remaining: number }[];
    expect(pools).toEqual([expect.objectContaining({ id: open, remaining: 2 })]);
    const rolls = JSON.parse(result.draw.rolls) as { stage: string }[];
    expect(rolls[0]).toMatchObject({ stage: "pool" });
  });
});

describe("pickWeighted", () => {
  const rows = [
    { amount: 1, weight: 1 },
    { amount: 2, weight: 3 },
  ];
  it("lands each value on its share of the table", () => {
    expect(pickWeighted(rows, 0)?.amount).toBe(1);
    expect(pickWeighted(rows, 0.2499)?.amount).toBe(1);
    expect(pickWeighted(rows, 0.25)?.amount).toBe(2);
    expect(pickWeighted(rows, 0.9999)?.amount).toBe(2);
  });

  it("gives nothing for an empty table or one whose weights are all zero; a value at the top lands on the last row", () => {
    expect(pickWeighted([], 0.5)).toBeNull();
    expect(
      pickWeighted(
        [
          { amount: 1, weight: 0 },
          { amount: 2, weight: 0 },
        ],
        0,
      ),
    ).toBeNull();
    expect(pickWeighted(rows, 1)?.amount).toBe(2);
  });
});
