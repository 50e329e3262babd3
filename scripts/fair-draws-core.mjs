/**
 * The rules of the campaign's draws record, in plain JavaScript with no dependency, so the same
 * file checks the record in Node (scripts/verify-draws.mjs) and in a visitor's browser
 * (/fair-draws), and the server writes the record with the same functions. Hashes use Web Crypto
 * (globalThis.crypto.subtle). The exact specification, with test vectors, is
 * docs/verify-a-draw-day.md; the scheme and what it proves, docs/decisions/0019-fair-draws.md.
 * The beacon's signature check needs BLS12-381: scripts/fair-draws-bls.mjs, passed in as
 * `signatures`.
 */

export const GENESIS_PREV = "0".repeat(64);
/** A draw's record must be written within this long of its entry's. */
export const MAX_DRAW_DELAY_MS = 3_600_000;
const TWO_53 = 9007199254740992;
const KATHMANDU_OFFSET_MS = (5 * 60 + 45) * 60_000;

// ---------------------------------------------------------------- bytes

export const hexToBytes = (hex) => {
  if (typeof hex !== "string" || !/^([0-9a-f]{2})+$/.test(hex)) throw new Error("not a hex string");
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

/** The commitment of a house seed: SHA-256 of its 32 bytes. */
export const commitmentOf = (seedHex) => sha256Hex(hexToBytes(seedHex));

/** A beacon round's randomness: SHA-256 of its signature's bytes. */
export const randomnessOf = (signatureHex) => sha256Hex(hexToBytes(signatureHex));

/** The top 53 bits of the first 8 bytes (big-endian), an integer in [0, 2^53). */
export function bits53(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, 8);
  return view.getUint32(0) * 2097152 + (view.getUint32(4) >>> 11);
}

/** A roll as a number in [0, 1): its 53 bits over 2^53 (exact in a double). */
export const unitOf = (n) => n / TWO_53;

/** The input of an entry's k-th roll: its entry record's hash, "|", k in decimal (k from 0). */
export const rollInput = (entryHash, k) => `${entryHash}|${k}`;

/** The k-th roll of an entry: bits53(HMAC-SHA256(key, rollInput)). The key is the round's randomness or the house seed (32 bytes). */
export async function rollBits(keyHex, entryHash, k) {
  const key = await globalThis.crypto.subtle.importKey(
    "raw",
    hexToBytes(keyHex),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return bits53(new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", key, utf8(rollInput(entryHash, k)))));
}

// ---------------------------------------------------------------- time and the beacon's rounds

/** The Kathmandu date (UTC+05:45) of an ISO instant. */
export const kathmanduDateOf = (iso) => new Date(Date.parse(iso) + KATHMANDU_OFFSET_MS).toISOString().slice(0, 10);

/** The time (ms) a round is published: (genesis_time + (round - 1) × period) × 1000. */
export const roundTimeMs = (chain, round) => (chain.genesis_time + (round - 1) * chain.period) * 1000;

/** The first round whose time is strictly after `ms`. */
export const roundAfter = (chain, ms) =>
  Math.max(1, Math.floor((ms - chain.genesis_time * 1000) / (chain.period * 1000)) + 2);

// ---------------------------------------------------------------- the texts that are hashed

const poolOf = (p) => ({ id: p.id, amount: p.amount, count: p.count, paid: p.paid, probability: p.probability });
const rowOf = (b) => ({ amount: b.amount, weight: b.weight });

/** A day's terms, committed before the day: the beacon, the house seed's commitment, every pool and the base tables. */
export function termsText(t) {
  return JSON.stringify({
    date: t.date,
    chain: t.chain
      ? {
          name: t.chain.name,
          chain_hash: t.chain.chain_hash,
          public_key: t.chain.public_key,
          genesis_time: t.chain.genesis_time,
          period: t.chain.period,
        }
      : null,
    house_commitment: t.house_commitment,
    pools: t.pools.map((p) => ({
      id: p.id,
      type: p.type,
      branch: p.branch,
      amount: p.amount,
      count: p.count,
      probability: p.probability,
    })),
    base_tables: { second: t.base_tables.second.map(rowOf), third: t.base_tables.third.map(rowOf) },
  });
}

/** An entry fixed: its public id, round of the campaign, pools, the day's terms, the beacon round that will decide it. */
export function entryText(r) {
  return JSON.stringify({
    seq: r.seq,
    kind: "entry",
    time: r.time,
    date: r.date,
    id: r.id,
    round: r.round,
    pool_type: r.pool_type,
    branch: r.branch,
    terms: r.terms,
    beacon_round: r.beacon_round,
    prev: r.prev,
  });
}

/** An entry drawn: the randomness used, the pools before the draw, every roll, the prize. */
export function drawText(r) {
  return JSON.stringify({
    seq: r.seq,
    kind: "draw",
    time: r.time,
    date: r.date,
    entry: r.entry,
    entry_hash: r.entry_hash,
    id: r.id,
    source: r.source,
    beacon_round: r.beacon_round,
    signature: r.signature,
    reason: r.reason,
    pools: r.pools.map(poolOf),
    base_table: r.base_table.map(rowOf),
    rolls: [...r.rolls],
    prize: { amount: r.prize.amount, outcome: r.prize.outcome, pool: r.prize.pool },
    prev: r.prev,
  });
}

// ---------------------------------------------------------------- the rules

/** Which pools a round of the campaign draws from. */
export const POOL_TYPES = {
  second: ["preregistration_public", "preregistration_branch"],
  third: ["registration_branch"],
};

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

const NONE = { amount: 0, outcome: "none", pool: null };

/**
 * The prize the rules give: one roll per pool in order, the first roll below probability/100
 * wins that pool; no win: one more roll on the base table when it has rows, else nothing.
 * `roll(k)` gives the k-th value in [0, 1). Returns the prize and how many rolls it used.
 */
export async function prizeFor(pools, baseTable, roll) {
  let used = 0;
  for (const pool of orderPools(pools)) {
    const value = await roll(used++);
    if (value < pool.probability / 100) return { prize: { amount: pool.amount, outcome: "pool", pool: pool.id }, used };
  }
  if (baseTable.length) {
    const row = pickWeighted(baseTable, await roll(used++));
    return { prize: row ? { amount: row.amount, outcome: "fallback", pool: null } : NONE, used };
  }
  return { prize: NONE, used };
}

/** The pools a draw sees: the day's committed pools of its type and branch, with what the day's draws before it paid. */
export function poolsBefore(terms, poolType, branch, paid) {
  return orderPools(
    terms.pools
      .filter((p) => p.type === poolType && p.branch === branch)
      .map((p) => ({
        id: p.id,
        amount: p.amount,
        count: p.count,
        paid: paid.get(p.id) ?? 0,
        probability: p.probability,
      })),
  );
}

// ---------------------------------------------------------------- checking a day

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Checks one day's published record:
 *   { date, chain?, terms, terms_hash, house_seed, previous_head, head, records: [{ text, hash }] }
 * `signatures(publicKey, round, signature)` checks a beacon signature (scripts/fair-draws-bls.mjs);
 * without it signatures are counted as unchecked. `pinned` is this day's line of a campaign file
 * saved earlier ({ terms_hash, head, closed }). Resolves to { ok: true, … counts } or
 * { ok: false, seq, id, reason } naming the first record that does not check (seq 0: the day).
 */
export async function verifyDay(day, { signatures = null, pinned = null } = {}) {
  const fail = (r, reason) => ({ ok: false, seq: r ? r.seq : 0, id: r ? r.id : "", reason });
  if (!day || typeof day !== "object" || !Array.isArray(day.records) || typeof day.terms !== "string")
    return fail(null, "This is not a day's draw record.");
  if ((await sha256Hex(day.terms)) !== day.terms_hash) return fail(null, "The day's terms do not match their hash.");
  if (pinned && pinned.terms_hash !== day.terms_hash)
    return fail(null, "The day's terms are not the ones in the saved campaign file: the day was remade.");
  let terms;
  try {
    terms = JSON.parse(day.terms);
  } catch {
    return fail(null, "The day's terms are not readable.");
  }
  if (terms.date !== day.date) return fail(null, "The terms are another day's.");
  if (termsText(terms) !== day.terms) return fail(null, "The terms are not written in the published form.");
  if (day.house_seed && (await commitmentOf(day.house_seed)) !== terms.house_commitment)
    return fail(null, "The house seed does not match the commitment published before the day.");
  if (!day.head) return fail(null, "The day's chain head is missing.");

  const chain = terms.chain;
  const entries = new Map(); // seq → { record, hash, drawn }
  const paid = new Map();
  const notDrawn = [];
  let prev = day.previous_head;
  let prevSeq = null;
  let prevTime = null;
  let lastDrawnEntry = 0;
  let lastOwnHash = null;
  let draws = 0;
  let house = 0;
  let unchecked = 0;
  let ownEntries = 0;
  const hashes = new Set();
  const ownSeqs = []; // the day's entries in order, and the first of them not drawn yet
  let waiting = 0;

  for (const item of day.records) {
    let r;
    try {
      r = JSON.parse(item.text);
    } catch {
      return fail(null, "A record is not readable.");
    }
    const text = r.kind === "entry" ? entryText(r) : r.kind === "draw" ? drawText(r) : null;
    if (text !== item.text) return fail(r, "This record is not written in the published form.");
    if ((await sha256Hex(item.text)) !== item.hash) return fail(r, "This record was changed after it was made.");
    if (prevSeq !== null && r.seq !== prevSeq + 1)
      return fail(r, `Record ${prevSeq + 1} is missing: the records jump from ${prevSeq} to ${r.seq}.`);
    if (r.prev !== prev) return fail(r, "The chain is broken: this record does not follow the one before it.");
    if (prevTime !== null && r.time < prevTime) return fail(r, "This record's time is earlier than the one before it.");
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(r.time))
      return fail(r, "This record's time is not readable.");
    prev = item.hash;
    prevSeq = r.seq;
    prevTime = r.time;
    hashes.add(item.hash);

    if (r.kind === "entry") {
      if (r.date !== kathmanduDateOf(r.time)) return fail(r, "This entry's time is outside its day.");
      entries.set(r.seq, { record: r, hash: item.hash, drawn: false });
      if (r.date !== day.date) continue; // another day's entry, checked with its own day
      ownEntries++;
      ownSeqs.push(r.seq);
      lastOwnHash = item.hash;
      if (r.terms !== day.terms_hash) return fail(r, "This entry names other terms than the day's.");
      if (!POOL_TYPES[r.round]?.includes(r.pool_type)) return fail(r, "This entry's pool type does not fit its round.");
      if ((r.branch === null) !== (r.pool_type === "preregistration_public"))
        return fail(r, "This entry's branch does not fit its pool type.");
      const expected = chain ? roundAfter(chain, Date.parse(r.time)) : null;
      if (r.beacon_round !== expected)
        return fail(r, `This entry must be decided by beacon round ${expected}, the first after it was fixed.`);
      continue;
    }
    if (r.kind !== "draw") return fail(r, "This record is of no known kind.");
    if (r.date !== day.date) continue; // a draw of another day's entry
    lastOwnHash = item.hash;
    const entry = entries.get(r.entry);
    if (!entry || entry.hash !== r.entry_hash || entry.record.date !== day.date)
      return fail(r, "This draw does not name an entry of the day fixed before it.");
    if (entry.drawn) return fail(r, "This entry was drawn twice.");
    if (r.entry < lastDrawnEntry) return fail(r, "Entries are drawn out of the order they were fixed in.");
    while (waiting < ownSeqs.length && entries.get(ownSeqs[waiting]).drawn) waiting++;
    if (waiting < ownSeqs.length && ownSeqs[waiting] < r.entry) {
      const skipped = entries.get(ownSeqs[waiting]).record;
      return fail(
        r,
        `The entry fixed at record ${skipped.seq} (${skipped.id}) was never drawn, yet later entries were.`,
      );
    }
    const e = entry.record;
    if (r.id !== e.id || r.beacon_round !== e.beacon_round) return fail(r, "This draw does not match its entry.");
    if (r.time < e.time || Date.parse(r.time) - Date.parse(e.time) > MAX_DRAW_DELAY_MS)
      return fail(r, "This draw's time does not follow its entry's.");
    entry.drawn = true;
    lastDrawnEntry = r.entry;
    draws++;

    let key = null;
    if (r.source === "beacon") {
      if (!chain || typeof r.signature !== "string" || r.reason !== null)
        return fail(r, "This draw names a beacon round the day has no beacon for.");
      if (Date.parse(r.time) < roundTimeMs(chain, r.beacon_round))
        return fail(r, "This draw is dated before its beacon round was published.");
      if (signatures) {
        if (!(await signatures(chain.public_key, r.beacon_round, r.signature)))
          return fail(
            r,
            `The signature of beacon round ${r.beacon_round} does not verify with the chain's public key.`,
          );
      } else unchecked++;
      key = await randomnessOf(r.signature);
    } else if (r.source === "house") {
      if (r.signature !== null || typeof r.reason !== "string" || !r.reason)
        return fail(r, "A draw with the house seed must say why.");
      house++;
      key = day.house_seed || null;
    } else return fail(r, "This draw's randomness has no known source.");

    const pools = poolsBefore(terms, e.pool_type, e.branch, paid);
    if (!same(r.pools, pools)) {
      return fail(r, "The pools shown are not the day's committed pools less what the draws before paid.");
    }
    const baseTable = terms.base_tables[e.round];
    if (!same(r.base_table, baseTable)) return fail(r, "The base table is not the day's committed one.");
    if (key) {
      const rolled = [];
      const outcome = await prizeFor(pools, baseTable, async (k) => {
        rolled[k] = await rollBits(key, r.entry_hash, k);
        return unitOf(rolled[k]);
      });
      if (!same(r.rolls, rolled)) return fail(r, "The rolls do not come from the round's randomness and the entry.");
      if (!same(r.prize, outcome.prize)) return fail(r, "The prize does not follow from the pools and the rolls.");
    } else {
      // The house seed is published once the day is closed: until then only the prize's shape is checked.
      const outcome = await prizeFor(pools, baseTable, async (k) => unitOf(r.rolls[k] ?? 0));
      if (outcome.used !== r.rolls.length || !same(r.prize, outcome.prize))
        return fail(r, "The prize does not follow from the pools and the rolls.");
    }
    if (r.prize.pool !== null) paid.set(r.prize.pool, (paid.get(r.prize.pool) ?? 0) + 1);
  }
  if (day.records.length && lastOwnHash !== prev)
    return fail(null, "The record does not end with one of the day's own records.");
  const head = day.records.length ? prev : day.previous_head;
  if (day.head !== head) return fail(null, "The published chain head is not the day's last record.");
  if (pinned && pinned.head) {
    if (!hashes.has(pinned.head) && pinned.head !== day.previous_head)
      return fail(null, "The saved campaign file's head for this day is not in the record: draws were cut.");
    if (pinned.closed && pinned.head !== day.head)
      return fail(null, "The day was closed with another head than the record's: draws were cut or added.");
  }
  for (const { record, drawn } of entries.values()) if (!drawn && record.date === day.date) notDrawn.push(record.id);
  if (day.closed && notDrawn.length)
    return fail(null, `The day is closed, yet ${notDrawn.join(", ")} was never drawn.`);
  return { ok: true, entries: ownEntries, draws, house, unchecked, notDrawn, head };
}

/**
 * Checks a campaign: its list of days ({ days: [{ date, terms_hash, head, closed }] }, newest first
 * or not) and every day's record. Days must follow one another with none missing, every day must
 * check, the days' records must make one chain, and a campaign file saved earlier (`pinned`) must
 * agree with the days it lists.
 */
export async function verifyCampaign(list, days, { signatures = null, pinned = null } = {}) {
  const fail = (date, reason, seq = 0, id = "") => ({ ok: false, date, seq, id, reason });
  const listed = [...(list?.days ?? [])].sort((a, b) => (a.date < b.date ? -1 : 1));
  const byDate = new Map(days.map((d) => [d.date, d]));
  const pins = new Map((pinned?.days ?? []).map((d) => [d.date, d]));
  for (const pin of pins.values()) {
    if (!listed.some((d) => d.date === pin.date))
      return fail(pin.date, "A day of the saved campaign file is missing from the list.");
  }
  const seen = new Map(); // seq → hash
  const results = [];
  for (let i = 0; i < listed.length; i++) {
    const line = listed[i];
    if (i > 0) {
      const next = new Date(Date.parse(`${listed[i - 1].date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      if (line.date !== next) return fail(next, "This day is missing from the campaign's list.");
    }
    const day = byDate.get(line.date);
    if (!day) return fail(line.date, "This day's record is missing.");
    if (day.terms_hash !== line.terms_hash || day.head !== line.head)
      return fail(line.date, "The day's record does not match the campaign's list.");
    const result = await verifyDay(day, { signatures, pinned: pins.get(line.date) ?? null });
    if (!result.ok) return { ...result, date: line.date };
    for (const item of day.records) {
      const seq = JSON.parse(item.text).seq;
      if (seen.has(seq) && seen.get(seq) !== item.hash)
        return fail(line.date, "Two days show different records at one place.", seq);
      seen.set(seq, item.hash);
    }
    if (day.records.length) {
      const first = JSON.parse(day.records[0].text).seq;
      const before = first === 1 ? GENESIS_PREV : seen.get(first - 1);
      if (before !== day.previous_head) return fail(line.date, "The day does not follow the day before it.", first);
    }
    results.push({ date: line.date, ...result });
  }
  return { ok: true, days: results };
}
