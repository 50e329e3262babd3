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
