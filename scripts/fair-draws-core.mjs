/**
 * The rules of a fair-draw day, in plain JavaScript with no dependency, so the same file
 * checks a day in Node (scripts/verify-draws.mjs) and in a visitor's browser (/fair-draws).
 * Hashes use Web Crypto (globalThis.crypto.subtle), present in both.
 * docs/decisions/0019-fair-draws.md explains the scheme; the server writes the records
 * with the same `recordText` (app/models/fair-draw.server.ts).
 */

/** The text a record's hash is taken over: every field in a fixed order, the previous hash included. */
export function recordText(r) {
  return JSON.stringify({
    seq: r.seq,
    time: r.time,
    round: r.round,
    ref: r.ref,
    branch: r.branch,
    pool_type: r.pool_type,
    pools: r.pools.map((p) => ({
      id: p.id,
      amount: p.amount,
      count: p.count,
      paid: p.paid,
      probability: p.probability,
    })),
    base_table: r.base_table.map((b) => ({ amount: b.amount, weight: b.weight })),
    rolls: r.rolls.map((x) => ({ input: x.input, value: x.value })),
    prize: { amount: r.prize.amount, outcome: r.prize.outcome, allocation_id: r.prize.allocation_id },
    prev: r.prev,
  });
}

/** The public input of a roll: the day, the round, the entry's reference and the roll's index. */
export const rollInput = (date, round, ref, index) => `${date}|${round}|${ref}|${index}`;

/** 53 bits of a hash (its first 8 bytes) as a number in [0, 1), every value equally likely. */
export function unitFromBytes(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, 8);
  const hi = view.getUint32(0) >>> 5; // 27 bits
  const lo = view.getUint32(4) >>> 6; // 26 bits
  return (hi * 67108864 + lo) / 9007199254740992;
}

const hexToBytes = (hex) => {
  if (!/^([0-9a-f]{2})+$/.test(hex)) throw new Error("not a hex string");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
};
const bytesToHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const utf8 = (text) => new TextEncoder().encode(text);

export async function sha256Hex(data) {
  const bytes = typeof data === "string" ? utf8(data) : data;
  return bytesToHex(new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes)));
}

/** The commitment of a seed: SHA-256 of its bytes. */
export const commitmentOf = (seedHex) => sha256Hex(hexToBytes(seedHex));

/** A roll's value: HMAC-SHA256(seed, input) as a number in [0, 1). */
export async function rollValue(seedHex, input) {
  const key = await globalThis.crypto.subtle.importKey(
    "raw",
    hexToBytes(seedHex),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return unitFromBytes(new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", key, utf8(input))));
}

/** Pools with prizes left, highest amount first, ties by lower id: the order a draw rolls them in. */
export const orderPools = (pools) =>
  pools.filter((p) => p.paid < p.count).sort((a, b) => b.amount - a.amount || a.id - b.id);

/** The row of a weighted table a value in [0, 1) lands on; null for an empty table. */
export function pickWeighted(rows, value) {
  const total = rows.reduce((s, r) => s + r.weight, 0);
  if (!rows.length || !(total > 0)) return null;
  const target = value * total;
  let cumulative = 0;
  for (const row of rows) {
    cumulative += row.weight;
    if (target < cumulative) return row;
  }
  return rows[rows.length - 1];
}

/**
 * The prize the rules give for a record's pools, base table and roll values:
 * one roll per pool in order, the first roll below probability/100 wins that pool;
 * no win: one more roll on the base table when there is one, else nothing.
 * Returns the prize and how many rolls the rules used.
 */
export function prizeFor(pools, baseTable, values) {
  let used = 0;
  for (const pool of orderPools(pools)) {
    if (used >= values.length) return null;
    const value = values[used++];
    if (value < pool.probability / 100) {
      return { prize: { amount: pool.amount, outcome: "pool", allocation_id: pool.id }, used };
    }
  }
  if (baseTable.length) {
    if (used >= values.length) return null;
    const row = pickWeighted(baseTable, values[used++]);
    return { prize: row ? { amount: row.amount, outcome: "fallback", allocation_id: null } : none, used };
  }
  return { prize: none, used };
}
const none = { amount: 0, outcome: "none", allocation_id: null };

const samePrize = (a, b) => a.amount === b.amount && a.outcome === b.outcome && a.allocation_id === b.allocation_id;

/**
 * Checks a published day: { date, commitment, seed, records }. Resolves to
 * { ok: true, draws } or { ok: false, seq, ref, reason } naming the first draw that does not check
 * (seq 0 for the day itself).
 */
export async function verifyDay(day) {
  const fail = (record, reason) => ({ ok: false, seq: record ? record.seq : 0, ref: record ? record.ref : "", reason });
  if (!day || typeof day !== "object" || !Array.isArray(day.records))
    return fail(null, "This is not a day's draw record.");
  if (!day.seed) return fail(null, "The day's seed is not published yet: a day can be checked once it is over.");
  if ((await commitmentOf(day.seed)) !== day.commitment) {
    return fail(null, "The seed does not match the commitment published before the day's draws.");
  }
  const paid = new Map();
  let prev = day.commitment;
  for (let i = 0; i < day.records.length; i++) {
    const r = day.records[i];
    if (r.seq !== i + 1) return fail(r, `Draw number ${i + 1} is missing or out of order.`);
    if (r.prev !== prev) return fail(r, "The chain is broken: this draw does not follow the one before it.");
    if ((await sha256Hex(recordText(r))) !== r.hash)
      return fail(r, "This draw's record was changed after it was made.");
    for (let k = 0; k < r.rolls.length; k++) {
      const roll = r.rolls[k];
      if (roll.input !== rollInput(day.date, r.round, r.ref, k)) return fail(r, `Roll ${k + 1} has the wrong input.`);
      if ((await rollValue(day.seed, roll.input)) !== roll.value) {
        return fail(r, `Roll ${k + 1} does not come from the day's seed.`);
      }
    }
    const ordered = orderPools(r.pools);
    if (ordered.length !== r.pools.length || ordered.some((p, k) => p !== r.pools[k])) {
      return fail(r, "The pools are not listed in draw order.");
    }
    for (const p of r.pools) {
      if (paid.has(p.id) && paid.get(p.id) !== p.paid) {
        return fail(r, `Pool ${p.id} shows ${p.paid} prizes paid, but the draws before it left ${paid.get(p.id)}.`);
      }
    }
    const outcome = prizeFor(
      r.pools,
      r.base_table,
      r.rolls.map((x) => x.value),
    );
    if (!outcome || outcome.used !== r.rolls.length || !samePrize(outcome.prize, r.prize)) {
      return fail(r, "The prize does not follow from the pools and the rolls.");
    }
    for (const p of r.pools) paid.set(p.id, p.paid + (r.prize.allocation_id === p.id ? 1 : 0));
    prev = r.hash;
  }
  if (day.head !== undefined && day.head !== prev)
    return fail(null, "The published chain head is not the last draw's hash.");
  return { ok: true, draws: day.records.length };
}
