// The registration list's Pre Prize filter offers the registration pre-prize list of spec 000 §9 and
// 001 §3: 8,000 to 18,000 in steps of 1,000, and 50,000 (not the pre-registration prize list). The
// rendered select is checked end to end in tests/e2e/counter-privacy.spec.ts.
import { describe, expect, it } from "vitest";
import { PRE_PRIZES, REGISTRATION_PRE_PRIZES } from "~/utils/prize-constants";
import { PRE_PRIZE_OPTIONS } from "./RegistrationFilters";

describe("the registration list's Pre Prize filter", () => {
  it("offers the registration pre-prize list with its labels", () => {
    expect(PRE_PRIZE_OPTIONS).toEqual([
      ...[8000, 9000, 10000, 11000, 12000, 13000, 14000, 15000, 16000, 17000, 18000].map((value) => ({
        value,
        label: `Rs. ${value.toLocaleString("en-IN")}`,
      })),
      { value: 50000, label: "Rs. 50,000" },
    ]);
    expect(PRE_PRIZE_OPTIONS.map((o) => o.value)).toEqual(REGISTRATION_PRE_PRIZES.map((p) => p.amount));
    expect(PRE_PRIZE_OPTIONS.map((o) => o.value)).not.toEqual(PRE_PRIZES.map((p) => p.amount));
  });
});
