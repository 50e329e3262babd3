/**
 * The observers: head office names them (a branch user cannot; a line that is not a mobile is
 * refused under the field, nothing saved), and once a day is closed each gets one SMS with its
 * chain head and the next day's terms hash, through the SMS outbox, recorded once and listed on
 * /fair-draws; a day with an entry still waiting is not announced.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { announcements, commitAhead, publishedDay } from "~/models/fair-draw.server";
import {
  announceClosedDays,
  announceNow,
  observerPhones,
  OBSERVER_MESSAGES,
  setObservers,
} from "~/models/fair-observers.server";
import { drawSecondThrill, fixSecondThrill } from "~/models/prize-draw.server";
import { setClock } from "~/utils/time";
import { movingClock } from "../clock";
import { makeBranch, makePreregistration } from "../fixtures";

const HEAD_OFFICE = { id: 1, email: "admin@example.test", address: "10.0.0.1", scope: { branchId: null } };

describe("naming the observers", () => {
  it("is head office's: phones one a line, each a mobile, saved and audited", () => {
    const branch = makeBranch();
    expect(setObservers({ ...HEAD_OFFICE, scope: { branchId: branch.id } }, "9841000001")).toMatchObject({
      ok: false,
      code: "forbidden",
    });
    expect(setObservers(HEAD_OFFICE, "9841000001\nnot a phone")).toMatchObject({
      ok: false,
      errors: { phones: [OBSERVER_MESSAGES.notAPhone(2)] },
    });
    expect(observerPhones()).toEqual([]);
    expect(setObservers(HEAD_OFFICE, "9841000001\n\n 9851000002 \n9841000001")).toEqual({
      ok: true,
      phones: ["9841000001", "9851000002"],
    });
    expect(observerPhones()).toEqual(["9841000001", "9851000002"]);
    const audit = db.select().from(schema.auditLog).all().at(-1)!;
    expect(audit).toMatchObject({ action: "setting.update", entity_id: "fair_observers" });
  });
});

describe("a closed day", () => {
  it("is told to each observer once, with its head and the next day's terms, and listed", async () => {
    setObservers(HEAD_OFFICE, "9841000001\n9851000002");
    const day = "2026-09-09";
    setClock(movingClock("2026-09-09T06:00:00.000Z"));
    const waiting = makePreregistration({ is_verified: true });
    try {
      await drawSecondThrill(makePreregistration({ is_verified: true }).id);
      // An entry fixed and not drawn yet (its process stopped): the day cannot close.
      db.transaction((tx) => fixSecondThrill(tx, waiting.id), { behavior: "immediate" });
    } finally {
      setClock(null);
    }
    const later = new Date("2026-09-10T18:00:00.000Z"); // after the next day's commit hour
    commitAhead(db, new Date("2026-09-09T17:00:00.000Z"));
    expect(db.transaction((tx) => announceClosedDays(tx, later))).toBe(false);
    expect(announcements().find((a) => a.date === day)).toBeUndefined();

    setClock(movingClock("2026-09-09T06:05:00.000Z"));
    try {
      await drawSecondThrill(waiting.id);
    } finally {
      setClock(null);
    }
    announceNow(later);
    const sent = announcements().find((a) => a.date === day)!;
    const record = publishedDay(day, later)!;
    const next = db.select().from(schema.fairDays).where(eq(schema.fairDays.date, "2026-09-10")).get()!;
    expect(sent).toMatchObject({ head: record.head, next_terms_hash: next.terms_hash, phones: 2 });
    const sms = db
      .select()
      .from(schema.smsMessages)
      .all()
      .filter((m) => m.text.includes(`fair draws ${day} closed`));
    expect(sms.map((m) => m.to).sort()).toEqual(["9841000001", "9851000002"]);
    expect(sms[0].text).toContain(`Head ${record.head}`);
    expect(sms[0].text).toContain(next.terms_hash);
    expect(sms[0].purpose).toBe("notify");

    announceNow(later);
    expect(
      db
        .select()
        .from(schema.smsMessages)
        .all()
        .filter((m) => m.text.includes(`fair draws ${day} closed`)),
    ).toHaveLength(2);
    expect(() => db.update(schema.fairAnnouncements).set({ phones: 0 }).run()).toThrow(/cannot be changed/);
  });
});
