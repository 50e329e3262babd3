/**
 * Showroom hours (decision 21): a time is outside them before opening or from closing; hours past
 * midnight are read as such; opening and closing at the same minute is open all day.
 */
import { describe, expect, it } from "vitest";
import { outside } from "./integrity-write.server";

describe("outside the showrooms' hours", () => {
  it("is before opening or from closing", () => {
    const hours = { opens: "09:00", closes: "19:00" };
    expect(["08:59", "19:00", "23:30", "00:00"].map((t) => outside(t, hours))).toEqual([true, true, true, true]);
    expect(["09:00", "12:00", "18:59"].map((t) => outside(t, hours))).toEqual([false, false, false]);
  });

  it("reads hours past midnight as such", () => {
    const hours = { opens: "20:00", closes: "02:00" };
    expect(["19:59", "02:00", "12:00"].map((t) => outside(t, hours))).toEqual([true, true, true]);
    expect(["20:00", "23:59", "00:00", "01:59"].map((t) => outside(t, hours))).toEqual([false, false, false, false]);
  });

  it("is nothing when they open and close at the same minute: open all day", () => {
    const hours = { opens: "00:00", closes: "00:00" };
    expect(["00:00", "09:00", "19:30", "23:59"].some((t) => outside(t, hours))).toBe(false);
  });
});
