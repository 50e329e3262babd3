/**
 * Changes a stranger (or an operator holding the database) could make to the campaign's published
 * draws: each edits the parsed records and then writes the chain again from the change on (new
 * texts, hashes, links, heads and list), as someone rewriting the record would, so that only the
 * rules, the published head or a pinned campaign file can catch it.
 */
import crypto from "node:crypto";
import { drawText, entryText, termsText, type DayFile } from "../scripts/fair-draws-core.mjs";

export type Line = { date: string; terms_hash: string; head: string | null; closed?: boolean };
export type Bundle = { campaign: { days: Line[] }; days: DayFile[] };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Rec = Record<string, any>;

const sha = (text: string) => crypto.createHash("sha256").update(text).digest("hex");
export const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Every record of the bundle once, in chain order. */
export function recordsOf(bundle: Bundle): Rec[] {
  const bySeq = new Map<number, Rec>();
  for (const day of bundle.days) {
    for (const item of day.records) {
      const r = JSON.parse(item.text) as Rec;
      bySeq.set(r.seq, r);
    }
  }
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

const textOf = (r: Rec) => (r.kind === "entry" ? entryText(r as never) : drawText(r as never));

/**
 * Writes the bundle again from `records` (edited, possibly reordered): numbered in order unless
 * `keepSeq`, each draw naming its entry's new place and hash, each record linked to the one before,
 * each day's segment, previous head, head and list line made anew. Days' terms edited in `terms`
 * get their new hash, which their entries then name.
 */
export function rewrite(
  bundle: Bundle,
  records: Rec[],
  { keepSeq = false, terms = new Map<string, Rec>() } = {},
): Bundle {
  const out = clone(bundle);
  const termsHash = new Map<string, string>();
  for (const day of out.days) {
    const edited = terms.get(day.date);
    if (edited) {
      day.terms = termsText(edited as never);
      day.terms_hash = sha(day.terms);
    }
    termsHash.set(day.date, day.terms_hash);
  }
  const entries = new Map<number, { seq: number; hash: string }>();
  let prev = "0".repeat(64);
  const items = records.map((r, i) => {
    const was = r.seq as number;
    if (!keepSeq) r.seq = i + 1;
    if (r.kind === "entry" && termsHash.has(r.date)) r.terms = termsHash.get(r.date);
    if (r.kind === "draw" && entries.has(r.entry)) {
      const e = entries.get(r.entry)!;
      r.entry = e.seq;
      r.entry_hash = e.hash;
    }
    r.prev = prev;
    const text = textOf(r);
    prev = sha(text);
    if (r.kind === "entry") entries.set(was, { seq: r.seq, hash: prev });
    return { r, text, hash: prev };
  });
  for (const day of out.days) {
    const own = items.filter((x) => x.r.date === day.date);
    if (!own.length) continue;
    const first = items.indexOf(own[0]);
    const last = items.indexOf(own[own.length - 1]);
    day.records = items.slice(first, last + 1).map((x) => ({ text: x.text, hash: x.hash }));
    day.previous_head = first === 0 ? "0".repeat(64) : items[first - 1].hash;
    day.head = own[own.length - 1].hash;
  }
  out.campaign.days = out.campaign.days.map((line) => {
    const day = out.days.find((d) => d.date === line.date)!;
    return { ...line, terms_hash: day.terms_hash, head: day.head };
  });
  return out;
}

/**
 * The forger who holds every key: from `fromSeq` on, each draw's pools, rolls and prize are made
 * again by the rules (over the chain as it now stands), so every later record is consistent too.
 */
export async function redrawFrom(bundle: Bundle, records: Rec[], fromSeq: number): Promise<Bundle> {
  const { poolsBefore, prizeFor, randomnessOf, rollBits, unitOf } = await import("../scripts/fair-draws-core.mjs");
  const terms = new Map(bundle.days.map((d) => [d.date, JSON.parse(d.terms)]));
  const seeds = new Map(bundle.days.map((d) => [d.date, d.house_seed]));
  const paid = new Map<string, Map<number, number>>();
  const entries = new Map<number, { hash: string; r: Rec }>();
  let prev = "0".repeat(64);
  for (const r of records) {
    r.prev = prev;
    if (r.kind === "draw") {
      const e = entries.get(r.entry)!;
      r.entry_hash = e.hash;
      const dayPaid = paid.get(r.date) ?? new Map<number, number>();
      paid.set(r.date, dayPaid);
      if (r.seq >= fromSeq) {
        const t = terms.get(r.date);
        r.pools = poolsBefore(t, e.r.pool_type, e.r.branch, dayPaid);
        r.base_table = t.base_tables[e.r.round];
        const key = r.source === "beacon" ? await randomnessOf(r.signature) : seeds.get(r.date)!;
        const rolls: number[] = [];
        const outcome = await prizeFor(r.pools, r.base_table, async (k) => {
          rolls[k] = await rollBits(key, r.entry_hash, k);
          return unitOf(rolls[k]);
        });
        r.rolls = rolls;
        r.prize = outcome.prize;
      }
      if (r.prize.pool !== null) dayPaid.set(r.prize.pool, (dayPaid.get(r.prize.pool) ?? 0) + 1);
    }
    prev = sha(textOf(r));
    if (r.kind === "entry") entries.set(r.seq, { hash: prev, r });
  }
  return rewrite(bundle, records, { keepSeq: true });
}
