import { describe, expect, it } from "vitest";
import { kathmanduDate, kathmanduDayRange, kathmanduToUtc, shiftDate } from "./time";

describe("Kathmandu dates", () => {
  it("turns an instant into the Kathmandu calendar day (UTC+05:45)", () => {
    expect(kathmanduDate(new Date("2026-11-21T18:14:59Z"))).toBe("2026-11-21");
    expect(kathmanduDate(new Date("2026-11-21T18:15:00Z"))).toBe("2026-11-22");
  });
  it("gives the UTC bounds of a Kathmandu day", () => {
    expect(kathmanduDayRange("2026-11-22")).toEqual({
      start: "2026-11-21T18:15:00.000Z",
      end: "2026-11-22T18:15:00.000Z",
    });
  });
  it("shifts dates across month ends", () => {
    expect(shiftDate("2026-03-01", -1)).toBe("2026-02-28");
    expect(shiftDate("2026-12-31", 1)).toBe("2027-01-01");
  });
  it("reads Kathmandu wall-clock times", () => {
    expect(kathmanduToUtc("2026-11-22T00:00")).toBe("2026-11-21T18:15:00.000Z");
    expect(kathmanduToUtc("2026-11-22")).toBe("2026-11-21T18:15:00.000Z");
  });
});

describe("kathmanduBounds", () => {
  it("a day to the same day is that whole Kathmandu day; a date-time is that instant", async () => {
    const { kathmanduBounds } = await import("./time");
    expect(kathmanduBounds("2026-11-21", "2026-11-21")).toEqual({
      from: "2026-11-20T18:15:00.000Z",
      to: "2026-11-21T18:15:00.000Z",
    });
    expect(kathmanduBounds("2026-11-21T09:00", "2026-11-21T10:00")).toEqual({
      from: "2026-11-21T03:15:00.000Z",
      to: "2026-11-21T04:15:00.000Z",
    });
    expect(kathmanduBounds(null, undefined)).toEqual({ from: null, to: null });
  });
});

describe("the fixed +05:45 wall clock", () => {
  it("agrees with the time-zone database for any instant since 1986", async () => {
    const fc = (await import("fast-check")).default;
    const { TZDate } = await import("@date-fns/tz");
    const { format } = await import("date-fns");
    const { displayDate, displayDateTime, kathmanduDate } = await import("./time");
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1986, 0, 1), max: Date.UTC(2100, 0, 1) }), (ms) => {
        const tz = new TZDate(ms, "Asia/Kathmandu");
        expect(kathmanduDate(new Date(ms))).toBe(format(tz, "yyyy-MM-dd"));
        expect(displayDate(new Date(ms).toISOString())).toBe(format(tz, "yyyy/MM/dd"));
        expect(displayDateTime(new Date(ms))).toBe(format(tz, "yyyy/MM/dd HH:mm"));
      }),
      { seed: 45, numRuns: 2000 },
    );
    // Before 1986 Nepal was at +05:30: the time-zone database answers.
    expect(displayDateTime(new Date("1980-01-01T00:00:00Z"))).toBe("1980/01/01 05:30");
  });

  it("shows stored instants read in time order, each minute its own, whatever came before", async () => {
    const fc = (await import("fast-check")).default;
    const { TZDate } = await import("@date-fns/tz");
    const { format } = await import("date-fns");
    const { displayDateTime } = await import("./time");
    const instant = fc.integer({ min: Date.UTC(1986, 0, 1), max: Date.UTC(2100, 0, 1) });
    fc.assert(
      fc.property(instant, fc.array(fc.integer({ min: 0, max: 150_000 }), { maxLength: 30 }), (start, steps) => {
        let ms = start;
        for (const step of steps) {
          ms += step;
          const shown = format(new TZDate(ms, "Asia/Kathmandu"), "yyyy/MM/dd HH:mm");
          expect(displayDateTime(new Date(ms).toISOString())).toBe(shown);
        }
      }),
      { seed: 46, numRuns: 300 },
    );
    // The same first sixteen characters in another zone's notation are another minute.
    expect(displayDateTime("2026-11-20T10:23:45.123Z")).toBe("2026/11/20 16:08");
    expect(displayDateTime("2026-11-20T10:23:45+01:00")).toBe("2026/11/20 15:08");
    expect(displayDateTime("2026-11-20T10:23:59.999Z")).toBe("2026/11/20 16:08");
    expect(displayDateTime("2026-11-20T10:24:00.000Z")).toBe("2026/11/20 16:09");
  });
});

describe("Bikram Sambat dates and the one display format", () => {
  // New years (Baisakh 1) as published by the Nepal government's calendars; the
  // day before each is the last day of the year before (Chaitra 30 or 31).
  // Mid-year: the Constitution was promulgated on 2072/06/03 BS = 2015-09-20 AD;
  // the Republic was declared on 2065/02/15 BS = 2008-05-28 AD; Ghatasthapana
  // 2081 fell on Asoj 17 = 2024-10-03 AD.
  const known: [string, string][] = [
    ["2080/01/01", "2023-04-14"],
    ["2081/01/01", "2024-04-13"],
    ["2082/01/01", "2025-04-14"],
    ["2080/12/30", "2024-04-12"],
    ["2081/12/31", "2025-04-13"],
    ["2072/06/03", "2015-09-20"],
    ["2065/02/15", "2008-05-28"],
    ["2081/06/17", "2024-10-03"],
  ];
  it.each(known)("%s BS is %s AD, both ways", async (bs, ad) => {
    const { adOfBs, bsOfDate } = await import("./time");
    expect(bsOfDate(ad)).toBe(bs);
    expect(adOfBs(bs)).toBe(ad);
  });
  it("shows an instant's Kathmandu day as yyyy/MM/dd in both calendars", async () => {
    const { displayBsDate, displayDate } = await import("./time");
    // 18:15Z is midnight in Kathmandu: the next day in both calendars.
    expect(displayDate("2024-04-12T18:14:59Z")).toBe("2024/04/12");
    expect(displayBsDate("2024-04-12T18:14:59Z")).toBe("2080/12/30");
    expect(displayDate("2024-04-12T18:15:00Z")).toBe("2024/04/13");
    expect(displayBsDate("2024-04-12T18:15:00Z")).toBe("2081/01/01");
  });
  it("has no BS date outside the converter's table", async () => {
    const { bsOfDate } = await import("./time");
    expect(bsOfDate("1900-01-01")).toBe("");
  });
});

describe("date inputs read as dates are shown", () => {
  it("takes yyyy/MM/dd (and the ISO dash form) as the same day", async () => {
    const { optionalDate, typedDate } = await import("~/schemas/primitives");
    expect(typedDate("2026/11/21")).toBe("2026-11-21");
    expect(typedDate("2026/1/5")).toBe("2026-01-05");
    expect(typedDate("2026-11-21T09:00")).toBe("2026-11-21T09:00");
    expect(optionalDate().parse("2026/11/21")).toBe("2026-11-21");
    expect(optionalDate().safeParse("21/11/2026").success).toBe(false);
  });
});
