// A day is typed as staff read it, yyyy/MM/dd, in every day input; each parser of those values reads
// that form and still the yyyy-MM-dd of old links and API clients, and answers a day that does not
// read with "Enter the date as yyyy/MM/dd." (the message under its field).
import { describe, expect, it } from "vitest";
import { drawFiltersSchema } from "~/schemas/draw";
import { ALLOCATION_MESSAGES, allocationSchema, schemePageFiltersSchema } from "~/schemas/allocation";
import { ANALYTICS_MESSAGES, analyticsRangeSchema } from "~/schemas/analytics";
import { auditFiltersSchema } from "~/schemas/audit";
import { DAY_MESSAGE, optionalDay, readDay } from "~/schemas/primitives";
import { referrerFiltersSchema } from "~/schemas/referrer";
import { parseQuery } from "~/http/query.server";

const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.success ? [] : r.error!.issues.map((i) => [i.path.join("."), i.message]);

describe("readDay", () => {
  it("reads yyyy/MM/dd, yyyy/M/d and yyyy-MM-dd as yyyy-MM-dd", () => {
    expect(readDay("2026/11/21")).toBe("2026-11-21");
    expect(readDay("2026/1/5")).toBe("2026-01-05");
    expect(readDay(" 2026-11-21 ")).toBe("2026-11-21");
    expect(readDay("2028/02/29")).toBe("2028-02-29");
  });

  it("refuses what is not a real day", () => {
    for (const bad of ["2026/02/30", "2026/13/01", "21/11/2026", "11/21/2026", "2026/11/21 10:00", "abc", ""]) {
      expect(readDay(bad), bad).toBeNull();
    }
  });

  it("an optional day: empty is not given; a bad one is the day message", () => {
    expect(optionalDay().parse("")).toBeUndefined();
    expect(optionalDay().parse(undefined)).toBeUndefined();
    expect(optionalDay().parse("2026/11/21")).toBe("2026-11-21");
    expect(issues(optionalDay().safeParse("2026/02/30"))).toEqual([["", DAY_MESSAGE]]);
    expect(DAY_MESSAGE).toBe("Enter the date as yyyy/MM/dd.");
  });
});

describe("the parsers of the day inputs", () => {
  it("analytics: From/To typed yyyy/MM/dd; a bad day is its own message, not also an end before the start", () => {
    expect(analyticsRangeSchema.parse({ from: "2026/11/20", to: "2026-11-22" })).toEqual({
      from: "2026-11-20",
      to: "2026-11-22",
    });
    expect(ANALYTICS_MESSAGES.date).toBe(DAY_MESSAGE);
    expect(issues(analyticsRangeSchema.safeParse({ from: "2026/13/40", to: "2026/11/01" }))).toEqual([
      ["from", DAY_MESSAGE],
    ]);
    expect(issues(analyticsRangeSchema.safeParse({ from: "2026/11/22", to: "2026/11/20" }))).toEqual([
      ["to", ANALYTICS_MESSAGES.toBeforeFrom],
    ]);
  });

  it("referrer report: both forms read; a bad From is only its own message", () => {
    expect(referrerFiltersSchema.parse({ from: "2026/3/1", to: "2026-03-02" })).toMatchObject({
      from: "2026-03-01",
      to: "2026-03-02",
    });
    expect(issues(referrerFiltersSchema.safeParse({ from: "2026/13/40", to: "2026/01/01" }))).toEqual([
      ["from", DAY_MESSAGE],
    ]);
  });

  it("audit trail: From/To typed yyyy/MM/dd; a bad day says so", () => {
    expect(auditFiltersSchema.parse({ from: "2026/11/20", to: "2026-11-21" })).toMatchObject({
      from: "2026-11-20",
      to: "2026-11-21",
    });
    expect(issues(auditFiltersSchema.safeParse({ from: "2026/02/30" }))).toEqual([["from", DAY_MESSAGE]]);
  });

  it("scheme form and API: the date typed yyyy/MM/dd is stored yyyy-MM-dd", () => {
    const valid = { type: "preregistration_public", amount: 4000, count: 1, probability: 0 };
    expect(allocationSchema.parse({ ...valid, date: "2026/11/21" }).date).toBe("2026-11-21");
    expect(allocationSchema.parse({ ...valid, date: "2026-11-21" }).date).toBe("2026-11-21");
    expect(ALLOCATION_MESSAGES.date).toBe(DAY_MESSAGE);
    for (const date of ["2026/02/30", "", "21/11/2026", undefined]) {
      expect(issues(allocationSchema.safeParse({ ...valid, date })), String(date)).toEqual([["date", DAY_MESSAGE]]);
    }
  });

  it("scheme list, payout preview and draw audit: both forms read; a bad day is said", () => {
    const q = new URLSearchParams({ date: "2032/1/14", preview_date: "2032-01-10" });
    expect(parseQuery(q, schemePageFiltersSchema)).toEqual({
      value: { date: "2032-01-14", preview_date: "2032-01-10" },
      errors: {},
    });
    expect(drawFiltersSchema.parse({ from: "2032/01/10", to: "2032-01-14" })).toMatchObject({
      from: "2032-01-10",
      to: "2032-01-14",
    });

    const bad = new URLSearchParams({
      date: "2032/02/30",
      type: "nonsense",
      preview_date: "2032/13/01",
      entries: "-3",
    });
    expect(parseQuery(bad, schemePageFiltersSchema)).toEqual({
      value: {},
      errors: { date: [DAY_MESSAGE], preview_date: [DAY_MESSAGE] },
    });
    expect(issues(drawFiltersSchema.safeParse({ from: "abc", to: "" }))).toEqual([["from", DAY_MESSAGE]]);
  });
});
