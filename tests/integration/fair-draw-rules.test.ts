/**
 * Fair draws in one process (app/models/fair-draw.server.ts), checked by the public rules of
 * scripts/fair-draws-core.mjs: a day with both rounds verifies (the commitment is the SHA-256 of the
 * seed's bytes, each roll the HMAC of the seed's bytes, the first draw follows the commitment); the
 * days list and a day's record name the chain's head; a day without draws has none; committing
 * ahead writes today's and tomorrow's commitments; a reference once given out never changes; a
 * typed reference is read as the visitor means it, and nothing else is.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import {
  commitAhead,
  drawReference,
  listDays,
  normaliseReference,
  publishedDay,
  roundOf,
} from "~/models/fair-draw.server";
import { drawSecondThrill, drawThirdThrill } from "~/models/prize-draw.server";
import { commitmentOf, verifyDay } from "../../scripts/fair-draws-core.mjs";
import { makeBranch, makePreregistration } from "../fixtures";
import { makeRegistration } from "../referral-fixtures";

const DATE = "2026-07-14";
const DURING = new Date("2026-07-14T06:00:00.000Z"); // 11:45 in Kathmandu
const AFTER = new Date("2026-07-15T06:00:00.000Z");

/**
 * The day's draws, made by the first test that needs them (inside a test, so a mutation run counts the
 * draw's code as covered by the tests that read it).
 */
let drawn = false;
function drawTheDay() {
  if (drawn) return;
  drawn = true;
  const branch = makeBranch().id;
  db.insert(schema.allocations)
    .values([
      { type: "preregistration_public", branch_id: null, date: DATE, amount: 10000, count: 2, probability: 40 },
      { type: "registration_branch", branch_id: branch, date: DATE, amount: 3000, count: 2, probability: 50 },
    ])
    .run();
  for (let i = 0; i < 6; i++) drawSecondThrill(makePreregistration({ is_verified: true }).id, { now: DURING });
  for (let i = 0; i < 4; i++) drawThirdThrill(makeRegistration(branch, { status: "confirmed" }).id, { now: DURING });
}

describe("a day drawn in this process", () => {
  it("checks with the public verifier once it is over, both rounds in one chain", async () => {
    drawTheDay();
    const day = publishedDay(DATE, AFTER)!;
    expect(day.records).toHaveLength(10);
    expect(day.records.map((r) => r.round)).toEqual([...Array(6).fill("second"), ...Array(4).fill("third")]);
    expect(day.records[0].prev).toBe(day.commitment);
    expect(await commitmentOf(day.seed!)).toBe(day.commitment);
    expect(await verifyDay(day)).toEqual({ ok: true, draws: 10 });
  });

  it("is listed with its chain head and number of draws, the same head as its record", () => {
    drawTheDay();
    const day = publishedDay(DATE, AFTER)!;
    const head = day.records.at(-1)!.hash;
    expect(day.head).toBe(head);
    expect(listDays(AFTER).find((d) => d.date === DATE)).toMatchObject({ draws: 10, head, over: true });
    expect(listDays(DURING).find((d) => d.date === DATE)).toMatchObject({ draws: 10, head, over: false, seed: null });
  });
});

describe("a day without draws", () => {
  it("is committed with today by commitAhead, with no head, and its seed published once it is over", () => {
    const at = new Date("2026-08-03T04:00:00.000Z");
    commitAhead(db, at);
    const committed = db
      .select({ date: schema.drawDays.date })
      .from(schema.drawDays)
      .all()
      .map((d) => d.date);
    expect(committed).toEqual(expect.arrayContaining(["2026-08-03", "2026-08-04"]));
    expect(publishedDay("2026-08-03", at)).toMatchObject({ head: null, seed: null, records: [] });
    const later = publishedDay("2026-08-03", new Date("2026-08-05T04:00:00.000Z"))!;
    expect(later).toMatchObject({ head: null, over: true });
    const seed = db.select().from(schema.drawDays).where(eq(schema.drawDays.date, "2026-08-03")).get()!.seed;
    expect(later.seed).toBe(seed);
    expect(listDays(at).find((d) => d.date === "2026-08-03")).toMatchObject({ draws: 0, head: null });
  });

  it("a day never committed has no record", () => {
    expect(publishedDay("2020-01-01", AFTER)).toBeNull();
  });
});

describe("the public reference", () => {
  it("of a slug never changes, so a reference once given out still finds its draws", () => {
    expect(drawReference("cFyuupm3f6n8veab")).toBe("ZVPH-73GV-WZ9K");
  });

  it("is read as typed: any case, spaces or dashes anywhere, O as 0, I and L as 1", () => {
    expect(normaliseReference("zvph 73gv wz9k")).toBe("ZVPH-73GV-WZ9K");
    expect(normaliseReference("ZVPH73GVWZ9K")).toBe("ZVPH-73GV-WZ9K");
    expect(normaliseReference("o0il-O0IL-abcd")).toBe("0011-0011-ABCD");
  });

  it("is nothing else: eleven or thirteen characters, or a letter Crockford leaves out, is no reference", () => {
    expect(normaliseReference("ZVPH-73GV-WZ9")).toBeNull();
    expect(normaliseReference("ZVPH-73GV-WZ9KX")).toBeNull();
    expect(normaliseReference("XZVPH-73GV-WZ9K")).toBeNull();
    expect(normaliseReference("ZVPH-73GV-WZ9U")).toBeNull();
    expect(normaliseReference("")).toBeNull();
  });

  it("names the round: the pre-registration draw is the second thrill, the purchase's the third", () => {
    expect(roundOf(2)).toBe("second");
    expect(roundOf(3)).toBe("third");
  });
});
