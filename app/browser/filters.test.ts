// The browser's typing filters are the server's: the same rules (FILTER_PATTERNS) give the same result.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FILTERS } from "~/schemas/preregistration";
import { applyFilter } from "./filters";

const char = fc.oneof(
  fc.constantFrom(..."०१२९अकिं्@._-+ \t\nAz59éß😀<>'\"%;=\u200d\u0301"),
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
);
const text = fc.array(char, { maxLength: 40 }).map((a) => a.join(""));

describe("typing filters (spec 000 §5)", () => {
  for (const name of ["email", "text", "address", "digits"] as const) {
    it(`${name}: the browser keeps exactly what the server keeps`, () => {
      fc.assert(
        fc.property(text, (s) => {
          expect(applyFilter(name, s)).toBe(FILTERS[name](s));
        }),
        { seed: 20261123, numRuns: 500 },
      );
    });
  }

  it("examples", () => {
    expect(applyFilter("email", "a b+c@x.np!")).toBe("abc@x.np");
    expect(applyFilter("digits", "98-41 ९८७")).toBe("9841987");
    expect(applyFilter("text", "राम-बहादुर 3!")).toBe("रामबहादुर 3");
    expect(applyFilter("address", "Baneshwor-10, Kathmandu / Ward 3.!?")).toBe("Baneshwor-10, Kathmandu / Ward 3.");
    expect(applyFilter("unknown", "x!")).toBe("x!");
  });
});
