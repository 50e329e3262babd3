/**
 * Fair draws in one process (app/models/fair-draw.server.ts), checked by the public rules of
 * scripts/fair-draws-core.mjs: a day with both rounds of the campaign verifies (each entry's
 * record before its draw, the terms committed with the house seed's commitment, the chain from
 * the genesis); the days list and a day's record name the same head; a day without entries has
 * the head before it; tomorrow is committed from the commit hour; a public id never changes; a
 * typed id is read as the visitor means it, and nothing else is; a near miss finds its id.
 */
import { describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import {
  commitAhead,
  drawReference,
  listDays,
  nearReference,
  normaliseReference,
  ownDraws,
  publishedDay,
  roundOf,
} from "~/models/fair-draw.server";
import { drawSecondThrill, drawThirdThrill } from "~/models/prize-draw.server";
import { setClock } from "~/utils/time";
import { commitmentOf, GENESIS_PREV, verifyDay } from "../../scripts/fair-draws-core.mjs";
import { signatureVerifies } from "../../scripts/fair-draws-bls.mjs";
import { movingClock } from "../clock";
import { makeBranch, makePreregistration } from "../fixtures";
import { makeRegistration } from "../referral-fixtures";

const DATE = "2026-07-14";
const DURING = "2026-07-14T06:00:00.000Z"; // 11:45 in Kathmandu
const AFTER = new Date("2026-07-15T06:00:00.000Z");

/**
 * The day's draws, made by the first test that needs them (inside a test, so a mutation run counts the
 * draw's code as covered by the tests that read it).
 */
let drawn: Promise<void> | null = null;
function drawTheDay() {
  drawn ??= (async () => {
    const branch = makeBranch().id;
    db.insert(schema.allocations)
      .values([
        { type: "preregistration_public", branch_id: null, date: DATE, amount: 10000, count: 2, probability: 40 },
        { type: "registration_branch", branch_id: branch, date: DATE, amount: 3000, count: 2, probability: 50 },
      ])
      .run();
    setClock(movingClock(DURING));
    try {
      for (let i = 0; i < 6; i++) await drawSecondThrill(makePreregistration({ is_verified: true }).id);
      for (let i = 0; i < 4; i++) await drawThirdThrill(makeRegistration(branch, { status: "confirmed" }).id);
    } finally {
      setClock(null);
    }
  })();
  return drawn;
}

const parsed = (day: NonNullable<ReturnType<typeof publishedDay>>) =>
  day.records.map((r) => JSON.parse(r.text) as Record<string, unknown>);

describe("a day drawn in this process", () => {
  it("checks with the public verifier, both rounds in one chain, each entry before its draw", async () => {
    await drawTheDay();
    const day = publishedDay(DATE, AFTER)!;
    const records = parsed(day);
    expect(records.map((r) => r.kind)).toEqual(Array(10).fill(["entry", "draw"]).flat());
    expect(records.filter((r) => r.kind === "entry").map((r) => r.round)).toEqual([
      ...Array(6).fill("second"),
      ...Array(4).fill("third"),
    ]);
    expect(records[0].prev).toBe(GENESIS_PREV);
    expect(day.previous_head).toBe(GENESIS_PREV);
    expect(await commitmentOf(day.house_seed!)).toBe(JSON.parse(day.terms).house_commitment);
    expect(await verifyDay(day, { signatures: signatureVerifies })).toMatchObject({ ok: true, draws: 10, entries: 10 });
  });

  it("is listed with its chain head and counts, the same head as its record", async () => {
    await drawTheDay();
    const day = publishedDay(DATE, AFTER)!;
    const head = day.records.at(-1)!.hash;
    expect(day.head).toBe(head);
    expect(listDays(AFTER).find((d) => d.date === DATE)).toMatchObject({ draws: 10, entries: 10, head, closed: true });
    expect(listDays(new Date(DURING)).find((d) => d.date === DATE)).toMatchObject({ head, over: false, closed: false });
  });

  it("finds a visitor's draw by its public id, and a near miss by a did-you-mean", async () => {
    await drawTheDay();
    const ref = JSON.parse(publishedDay(DATE, AFTER)!.records[0].text).id as string;
    const own = ownDraws(ref);
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ id: ref, date: DATE, round: "second", drawn: { house: false } });
    const plain = ref.replace(/-/g, "");
    const typo = plain.slice(0, 5) + (plain[5] === "Z" ? "Y" : "Z") + plain.slice(6);
    const miss = `${typo.slice(0, 4)}-${typo.slice(4, 8)}-${typo.slice(8)}`;
    expect(ownDraws(miss)).toEqual([]);
    expect(nearReference(miss)).toBe(ref);
    const swapped = plain[0] === plain[1] ? null : plain[1] + plain[0] + plain.slice(2);
    if (swapped) expect(nearReference(`${swapped.slice(0, 4)}-${swapped.slice(4, 8)}-${swapped.slice(8)}`)).toBe(ref);
    expect(nearReference("ZZZZ-ZZZZ-ZZZZ")).toBeNull();
  });
});

describe("a day without entries", () => {
  it("is committed by commitAhead, with the chain's head before it, and its house seed once closed", () => {
    const at = new Date("2026-08-03T04:00:00.000Z");
    commitAhead(db, at);
    expect(publishedDay("2026-08-03", at)).toMatchObject({ records: [], house_seed: null, closed: false });
    const later = publishedDay("2026-08-03", new Date("2026-08-05T04:00:00.000Z"))!;
    expect(later).toMatchObject({ over: true, closed: true, entries: 0 });
    expect(later.house_seed).toMatch(/^[0-9a-f]{64}$/);
  });

  it("a day never committed has no record", () => {
    expect(publishedDay("2020-01-01", AFTER)).toBeNull();
  });
});

describe("the public id", () => {
  it("of a slug never changes, so an id once given out still finds its draws", () => {
    expect(drawReference("cFyuupm3f6n8veab")).toBe("ZVPH-73GV-WZ9K");
  });

  it("is read as typed: any case, spaces or dashes anywhere, O as 0, I and L as 1", () => {
    expect(normaliseReference("zvph 73gv wz9k")).toBe("ZVPH-73GV-WZ9K");
    expect(normaliseReference("ZVPH73GVWZ9K")).toBe("ZVPH-73GV-WZ9K");
    expect(normaliseReference("o0il-O0IL-abcd")).toBe("0011-0011-ABCD");
  });

  it("is nothing else: eleven or thirteen characters, or a letter Crockford leaves out, is no id", () => {
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
