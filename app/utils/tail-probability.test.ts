import { describe, expect, it } from "vitest";
import { binomialTail, chernoffTailBound, holm, poissonBinomialTail } from "./tail-probability";

/** The tail by enumerating every outcome of a few trials: the definition itself. */
function bruteTail(ps: number[], k: number): number {
  let total = 0;
  for (let mask = 0; mask < 1 << ps.length; mask++) {
    let prob = 1;
    let wins = 0;
    ps.forEach((p, i) => {
      if (mask & (1 << i)) {
        prob *= p;
        wins++;
      } else prob *= 1 - p;
    });
    if (wins >= k) total += prob;
  }
  return total;
}

describe("the Poisson-binomial tail", () => {
  it("is the sum over every outcome, for each k", () => {
    const ps = [0.1, 0.5, 0.02, 0.9, 0.33, 0.25, 0.6, 0.05, 0.75, 0.4];
    for (let k = 0; k <= ps.length + 1; k++)
      expect(poissonBinomialTail(ps, k), `k=${k}`).toBeCloseTo(bruteTail(ps, k), 12);
  });

  it("with one chance for every draw is the binomial tail", () => {
    const ps = new Array(200).fill(0.07);
    for (const k of [0, 5, 14, 30, 60]) {
      expect(poissonBinomialTail(ps, k)).toBeCloseTo(binomialTail(200, 0.07, k), 12);
    }
  });

  it("of a known binomial: P(X ≥ 3) for 10 fair coins is 0.9453125", () => {
    expect(binomialTail(10, 0.5, 3)).toBeCloseTo(0.9453125, 12);
    expect(binomialTail(10, 0.5, 11)).toBe(0);
    expect(binomialTail(10, 0, 1)).toBe(0);
    // Summed with exact fractions (Python's fractions.Fraction and math.comb):
    expect(binomialTail(100, 0.05, 20) / 1.0522953420147268e-7).toBeCloseTo(1, 10);
    expect(binomialTail(200, 0.07, 30) / 6.786399044771862e-5).toBeCloseTo(1, 10);
    expect(binomialTail(200, 0.07, 60) / 1.6712083942219445e-22).toBeCloseTo(1, 8);
  });

  it("the Chernoff bound is never below the exact tail", () => {
    const ps = Array.from({ length: 300 }, (_, i) => ((i * 37) % 100) / 250);
    const mean = ps.reduce((a, b) => a + b, 0);
    for (const k of [Math.ceil(mean), Math.ceil(mean) + 10, Math.ceil(mean) + 40, 250]) {
      const exact = poissonBinomialTail(ps, k);
      const bound = chernoffTailBound(ps, k);
      expect(bound, `k=${k}`).toBeGreaterThanOrEqual(exact);
      expect(bound, `k=${k}`).toBeLessThanOrEqual(1);
    }
    expect(chernoffTailBound(ps, Math.floor(mean) - 5)).toBe(1);
  });

  it("is the same bound with the trials counted by chance", () => {
    const chances = [0.01, 0.0877, 0.25];
    const counts = [300, 500, 40];
    const ps = chances.flatMap((p, i) => new Array<number>(counts[i]).fill(p));
    for (const k of [20, 60, 80, 120]) {
      const bound = chernoffTailBound(ps, k);
      expect(chernoffTailBound(chances, k, counts) / bound, `k=${k}`).toBeCloseTo(1, 9);
    }
    expect(chernoffTailBound(chances, 841, counts)).toBe(0);
  });
});

describe("Holm's procedure", () => {
  it("rejects in order while each p is within α/(m - rank)", () => {
    // m = 4, α = 0.05: bounds 0.0125, 0.0167, 0.025, 0.05.
    expect(holm([0.01, 0.04, 0.03, 0.005], 0.05)).toEqual([true, false, false, true]);
    expect(holm([0.01, 0.04, 0.02, 0.005], 0.05)).toEqual([true, true, true, true]);
    expect(holm([0.01, 0.04, 0.03, 0.02], 0.05)).toEqual([true, false, false, false]);
    expect(holm([0.013, 0.001, 0.9, 0.5], 0.05)).toEqual([true, true, false, false]);
    expect(holm([0.018, 0.001, 0.9, 0.5], 0.05)).toEqual([false, true, false, false]);
    expect(holm([], 0.001)).toEqual([]);
  });
});
