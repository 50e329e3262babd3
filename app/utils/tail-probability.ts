/**
 * Exact upper-tail probabilities for the integrity desk's statistical signals (decision 21):
 * - the Poisson-binomial tail P(S ≥ k), S the number of wins in independent draws each with its own
 *   chance p_i, computed exactly by dynamic programming over the draws (states 0 … k, the last one
 *   "k or more"), in O(n·k);
 * - a Chernoff bound on the same tail, cheap (O(n) a step), used only to leave out subjects whose
 *   tail is certainly above the threshold before the exact computation;
 * - the binomial tail P(X ≥ k) for n trials of one chance p, summed exactly in log space;
 * - Holm's step-down procedure, which keeps the chance of flagging any honest subject among the m
 *   tested at once within α.
 */

/** P(S ≥ k) for S the number of successes of independent trials with chances `ps`, exactly. */
export function poissonBinomialTail(ps: ArrayLike<number>, k: number): number {
  if (k <= 0) return 1;
  if (k > ps.length) return 0;
  // dist[j] = P(exactly j successes so far) for j < k; dist[k] = P(k or more).
  const dist = new Float64Array(k + 1);
  dist[0] = 1;
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i];
    const q = 1 - p;
    const top = Math.min(i + 1, k);
    dist[k] += top === k ? dist[k - 1] * p : 0;
    for (let j = Math.min(top, k - 1); j >= 1; j--) dist[j] = dist[j] * q + dist[j - 1] * p;
    dist[0] *= q;
  }
  return Math.min(1, Math.max(0, dist[k]));
}

/**
 * An upper bound on P(S ≥ k) (Chernoff): min over t > 0 of exp(Σ log(1 - p + p e^t) - t k). 1 when
 * k is not above the mean. Never below the exact tail. `counts`, when given, says how many trials
 * have each chance of `ps` (many draws share one chance: the sums are taken once per chance).
 */
export function chernoffTailBound(ps: ArrayLike<number>, k: number, counts?: ArrayLike<number>): number {
  const times = (i: number) => (counts ? counts[i] : 1);
  let mean = 0;
  let trials = 0;
  for (let i = 0; i < ps.length; i++) {
    mean += ps[i] * times(i);
    trials += times(i);
  }
  if (k <= mean) return 1;
  if (k > trials) return 0;
  const exponent = (t: number) => {
    let sum = 0;
    const et = Math.exp(t);
    for (let i = 0; i < ps.length; i++) sum += times(i) * Math.log1p(ps[i] * (et - 1));
    return sum - t * k;
  };
  // The exponent is convex in t: a golden-section search over [0, 50] finds its least value.
  let lo = 0;
  let hi = 50;
  const g = (Math.sqrt(5) - 1) / 2;
  let a = hi - g * (hi - lo);
  let b = lo + g * (hi - lo);
  let fa = exponent(a);
  let fb = exponent(b);
  for (let step = 0; step < 60; step++) {
    if (fa < fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - g * (hi - lo);
      fa = exponent(a);
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + g * (hi - lo);
      fb = exponent(b);
    }
  }
  return Math.min(1, Math.exp(Math.min(fa, fb)));
}

/** P(X ≥ k) for X binomial with n trials of chance p, exactly (a sum of its terms, in log space). */
export function binomialTail(n: number, p: number, k: number): number {
  if (k <= 0) return 1;
  if (k > n || p <= 0) return 0;
  if (p >= 1) return 1;
  // log of the first term, C(n, k) p^k (1 - p)^(n - k).
  let logTerm = k * Math.log(p) + (n - k) * Math.log1p(-p);
  for (let i = 1; i <= k; i++) logTerm += Math.log((n - k + i) / i);
  let term = Math.exp(logTerm);
  let sum = term;
  const ratio = p / (1 - p);
  for (let j = k; j < n; j++) {
    term *= ((n - j) / (j + 1)) * ratio;
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return Math.min(1, sum);
}

/**
 * Holm's step-down: which of m hypotheses to reject at family-wise level α. The p-values sorted
 * ascending are compared with α/m, α/(m-1), …; the first that is above its bound stops the rejections.
 */
export function holm(pValues: readonly number[], alpha: number): boolean[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => [p, i] as const).sort((x, y) => x[0] - y[0]);
  const rejected = new Array<boolean>(m).fill(false);
  for (let r = 0; r < m; r++) {
    const [p, i] = order[r];
    if (p > alpha / (m - r)) break;
    rejected[i] = true;
  }
  return rejected;
}
