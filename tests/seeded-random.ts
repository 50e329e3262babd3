/**
 * A seeded random source for statistical tests: the k-th value is HMAC-SHA256(seed, k) read as a
 * unit number the way the draw reads its own rolls (bits53 / 2^53). The seed is a fixed one, so
 * every run is the same run; SEED=<hex> tries another (SEED=random draws a fresh one). The test
 * prints the seed it used.
 */
import crypto from "node:crypto";
import { bits53, unitOf } from "../scripts/fair-draws-core.mjs";

const FIXED_SEED = "5eed0f7e57d1a9c0ffee0000c0ded00d";

export function seededSource(label: string): { seed: string; next: () => number } {
  const given = process.env.SEED;
  const seed = given === "random" ? crypto.randomBytes(16).toString("hex") : (given ?? FIXED_SEED);
  console.info(`${label}: seed ${seed} (replay with SEED=${seed})`);
  let k = 0;
  return {
    seed,
    next: () => unitOf(bits53(crypto.createHmac("sha256", Buffer.from(seed, "hex")).update(String(k++)).digest())),
  };
}
