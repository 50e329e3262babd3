#!/usr/bin/env node
/**
 * Writes docs/draw-test-vectors.json, the test vectors of docs/verify-a-draw-day.md: rounds of a
 * fixing time, roll bits, two real quicknet rounds (and a signature that must not verify), and a
 * small complete day drawn with the demo beacon's key. Deterministic: the same file on every run.
 *
 *   node scripts/draw-test-vectors.mjs > docs/draw-test-vectors.json
 */
import { createHash } from "node:crypto";
import {
  drawText,
  entryText,
  poolsBefore,
  prizeFor,
  randomnessOf,
  rollBits,
  roundAfter,
  roundTimeMs,
  sha256Hex,
  termsText,
  unitOf,
} from "./fair-draws-core.mjs";
import { makeChain } from "./local-beacon.mjs";

const QUICKNET = {
  name: "quicknet",
  chain_hash: "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
  public_key:
    "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a",
  genesis_time: 1692803367,
  period: 3,
};
// Published by the League of Entropy: GET https://api.drand.sh/{chain_hash}/public/2 and /3.
const SIG2 = "b6b6a585449b66eb12e875b64fcbab3799861a00e4dbf092d99e969a5eac57dd3f798acf61e705fe4f093db926626807";
const SIG3 = "b3fab6df720b68cc47175f2c777e86d84187caab5770906f515ff1099cb01e4deaa027075d860823e49477b93c72bd64";

const at = (ms) => new Date(ms).toISOString();
const t0 = roundTimeMs(QUICKNET, 40_000_000);
const rounds = [t0 - 1, t0, t0 + 1, t0 + 2999].map((ms) => ({ fixed_at: at(ms), round: roundAfter(QUICKNET, ms) }));

const key = createHash("sha256").update("test vector key").digest("hex");
const entryHash = createHash("sha256").update("test vector entry").digest("hex");
const rolls = [];
for (let k = 0; k < 4; k++) rolls.push({ key, entry_hash: entryHash, k, bits: await rollBits(key, entryHash, k) });

const beacon = [
  { public_key: QUICKNET.public_key, round: 2, signature: SIG2, randomness: await randomnessOf(SIG2), verifies: true },
  { public_key: QUICKNET.public_key, round: 3, signature: SIG3, randomness: await randomnessOf(SIG3), verifies: true },
  { public_key: QUICKNET.public_key, round: 3, signature: SIG2, randomness: await randomnessOf(SIG2), verifies: false },
];

// A small day: two entries fixed, drawn with the demo beacon (its key is public), pools committed.
const demo = makeChain();
const chain = {
  name: "demo",
  chain_hash: demo.info.hash,
  public_key: demo.info.public_key,
  genesis_time: demo.info.genesis_time,
  period: demo.info.period,
};
const date = "2026-03-10";
const houseSeed = createHash("sha256").update("test vector house seed").digest("hex");
const terms = {
  date,
  chain,
  house_commitment: await sha256Hex(Uint8Array.from(Buffer.from(houseSeed, "hex"))),
  pools: [
    { id: 1, type: "preregistration_public", branch: null, amount: 20000, count: 1, probability: 50 },
    { id: 2, type: "preregistration_public", branch: null, amount: 8000, count: 2, probability: 60 },
  ],
  base_tables: {
    second: [
      { amount: 4000, weight: 3 },
      { amount: 5000, weight: 1 },
    ],
    third: [],
  },
};
const termsTextValue = termsText(terms);
const termsHash = await sha256Hex(termsTextValue);
const records = [];
let prev = "0".repeat(64);
const push = async (text) => {
  const hash = await sha256Hex(text);
  records.push({ text, hash });
  prev = hash;
  return hash;
};
const entries = [];
for (const [i, local] of ["2026-03-10T10:00:00.250", "2026-03-10T10:00:01.900"].entries()) {
  const time = new Date(Date.parse(`${local}+05:45`)).toISOString();
  const body = {
    seq: records.length + 1,
    time,
    date,
    id: ["ABCD-EFGH-JKMN", "PQRS-TVWX-YZ01"][i],
    round: "second",
    pool_type: "preregistration_public",
    branch: null,
    terms: termsHash,
    beacon_round: roundAfter(chain, Date.parse(time)),
    prev,
  };
  entries.push({ body, hash: await push(entryText(body)) });
}
const paid = new Map();
for (const { body: e, hash } of entries) {
  const beaconRound = demo.sign(e.beacon_round);
  const pools = poolsBefore(terms, e.pool_type, e.branch, paid);
  const bits = [];
  const outcome = await prizeFor(pools, terms.base_tables.second, async (k) => {
    bits[k] = await rollBits(beaconRound.randomness, hash, k);
    return unitOf(bits[k]);
  });
  await push(
    drawText({
      seq: records.length + 1,
      time: new Date(Math.max(demo.roundTimeMs(e.beacon_round), Date.parse(entries[1].body.time)) + 40).toISOString(),
      date,
      entry: e.seq,
      entry_hash: hash,
      id: e.id,
      source: "beacon",
      beacon_round: e.beacon_round,
      signature: beaconRound.signature,
      reason: null,
      pools,
      base_table: terms.base_tables.second,
      rolls: bits,
      prize: outcome.prize,
      prev,
    }),
  );
  if (outcome.prize.pool !== null) paid.set(outcome.prize.pool, (paid.get(outcome.prize.pool) ?? 0) + 1);
}
const day = {
  date,
  terms: termsTextValue,
  terms_hash: termsHash,
  house_seed: houseSeed,
  previous_head: "0".repeat(64),
  head: prev,
  closed: true,
  records,
};

console.log(JSON.stringify({ chain: QUICKNET, rounds, rolls, beacon, day }, null, 2));
