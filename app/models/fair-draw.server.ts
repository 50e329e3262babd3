/**
 * Fair draws (docs/decisions/0019-fair-draws.md, docs/verify-a-draw-day.md): each Kathmandu day's
 * terms (the beacon, every pool, the base tables, the house seed's commitment) are committed
 * before the day; every entry fixed and every entry drawn is a record of one public chain; a
 * draw's rolls come from the first beacon round after its entry was fixed, or from the day's
 * house seed when the beacon did not answer (marked). The rules and the record's texts are
 * scripts/fair-draws-core.mjs, shared with the checkers.
 *
 * The house seed is stored sealed (app/utils/seal.server.ts) and opened here only: by a draw
 * that falls back (inside its transaction) and by the published record of a closed day.
 */
import crypto from "node:crypto";
import { and, asc, count as countRows, desc, eq, gte, inArray, lte, sql } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import { prepared } from "@db/prepared";
import { readBaseTable } from "~/models/prize-settings.server";
import { chainInfo, type ChainInfo } from "~/models/beacon.server";
import { announceNow } from "~/models/fair-observers.server";
import { seal, unseal } from "~/utils/seal.server";
import { kathmanduDate, now as clockNow, shiftDate } from "~/utils/time";
import { GENESIS_PREV, termsText } from "../../scripts/fair-draws-core.mjs";

export { entryReference as drawReference, normaliseReference } from "@db/reference";

const { allocations, drawQueue, drawRecords, fairAnnouncements, fairDays } = schema;

export type Round = "second" | "third";
export const roundOf = (thrill: number): Round => (thrill === 2 ? "second" : "third");

const sha256 = (data: string | Buffer) => crypto.createHash("sha256").update(data).digest("hex");

// ---------------------------------------------------------------- a day's terms

export type TermsPool = {
  id: number;
  type: string;
  branch: number | null;
  amount: number;
  count: number;
  probability: number;
};
export type Terms = {
  date: string;
  chain: ChainInfo | null;
  house_commitment: string;
  pools: TermsPool[];
  base_tables: { second: { amount: number; weight: number }[]; third: { amount: number; weight: number }[] };
};

const KATHMANDU_HOUR = new Intl.DateTimeFormat("en-GB", {
  hour: "numeric",
  hourCycle: "h23",
  timeZone: "Asia/Kathmandu",
});

/** The hour (Kathmandu) from which the next day's terms are committed; its pools are fixed from then on. */
export const COMMIT_HOUR = () => Number(process.env.FAIR_COMMIT_HOUR ?? 22);

const dayRow = prepared((q) =>
  q
    .select()
    .from(fairDays)
    .where(eq(fairDays.date, sql.placeholder("date")))
    .prepare(),
);

/** Whether a day's terms are committed (its pools can no longer change). */
export const isCommitted = (date: string, exec: Executor = db) => dayRow(exec).get({ date }) !== undefined;

/** The day's commitments, made now if they were not (every pool of the date as it stands, the base tables, the beacon). */
function commitDay(exec: Executor, date: string) {
  const made = dayRow(exec).get({ date });
  if (made) return made;
  const seed = crypto.randomBytes(32);
  const terms: Terms = {
    date,
    chain: chainInfo(),
    house_commitment: sha256(seed),
    pools: exec
      .select({
        id: allocations.id,
        type: allocations.type,
        branch: allocations.branch_id,
        amount: allocations.amount,
        count: allocations.count,
        probability: allocations.probability,
      })
      .from(allocations)
      .where(eq(allocations.date, date))
      .orderBy(asc(allocations.id))
      .all(),
    base_tables: { second: readBaseTable(exec, "second"), third: readBaseTable(exec, "third") },
  };
  const text = termsText(terms);
  try {
    exec
      .insert(fairDays)
      .values({
        date,
        terms: text,
        terms_hash: sha256(text),
        house_commitment: terms.house_commitment,
        house_sealed: seal(seed, date),
      })
      .run();
  } catch (error) {
    // Another process committed the day first (the trigger refuses a second row): its row stands.
    if (!String((error as Error).message).includes("never change")) throw error;
  }
  return dayRow(exec).get({ date })!;
}

/**
 * Commits today's terms if nothing did yet, and tomorrow's from COMMIT_HOUR on, so a day's terms
 * are public before its first draw (every draw and the landing of /fair-draws call it).
 */
export function commitAhead(exec: Executor = db, at: Date = clockNow()): void {
  const today = kathmanduDate(at);
  commitDay(exec, today);
  const hour = Number(KATHMANDU_HOUR.format(at));
  if (hour >= COMMIT_HOUR()) commitDay(exec, shiftDate(today, 1));
}

const termsCache = new Map<string, Terms>();
/** A committed day's terms (committing them if they were not). */
export function termsOf(exec: Executor, date: string): { terms: Terms; hash: string } {
  const row = commitDay(exec, date);
  let terms = termsCache.get(row.terms_hash);
  if (!terms) {
    terms = JSON.parse(row.terms) as Terms;
    termsCache.set(row.terms_hash, terms);
  }
  return { terms, hash: row.terms_hash };
}

/** The day's house seed, unsealed: only for a draw that falls back, and for a closed day's record. */
export function houseSeedOf(exec: Executor, date: string): string {
  const row = commitDay(exec, date);
  return unseal(row.house_sealed, date).toString("hex");
}

// ---------------------------------------------------------------- the chain

const lastRecord = prepared((q) =>
  q
    .select({ seq: drawRecords.seq, hash: drawRecords.hash, time: drawRecords.time })
    .from(drawRecords)
    .orderBy(desc(drawRecords.seq))
    .limit(1)
    .prepare(),
);

const insertRecord = prepared((q) =>
  q
    .insert(drawRecords)
    .values({
      seq: sql.placeholder("seq"),
      kind: sql.placeholder("kind"),
      date: sql.placeholder("date"),
      time: sql.placeholder("time"),
      ref: sql.placeholder("ref"),
      text: sql.placeholder("text"),
      hash: sql.placeholder("hash"),
    })
    .prepare(),
);

/** A clock set back by less than this (a time server's correction) keeps the record's times in order. */
const CLOCK_SLACK_MS = 60_000;

/**
 * Appends a record to the chain, inside the caller's write transaction (so the last record read
 * is the last there is, across processes). Its time is read now, under the write lock (or `at`,
 * a test's instant), never before the last record's within CLOCK_SLACK_MS nor before `notBefore`;
 * `make` writes the record's text and names its day for that place, time and previous hash.
 */
export function appendRecord(
  tx: Executor,
  kind: "entry" | "draw",
  ref: string,
  make: (place: { seq: number; prev: string; time: string }) => { text: string; date: string },
  { at, notBefore }: { at?: Date; notBefore?: number } = {},
): { seq: number; hash: string; time: string } {
  const last = lastRecord(tx).get();
  let ms = (at ?? clockNow()).getTime();
  if (notBefore !== undefined && ms < notBefore) ms = notBefore;
  if (last) {
    const lastAt = Date.parse(last.time);
    if (ms < lastAt && lastAt - ms < CLOCK_SLACK_MS) ms = lastAt;
  }
  const place = { seq: (last?.seq ?? 0) + 1, prev: last?.hash ?? GENESIS_PREV, time: new Date(ms).toISOString() };
  const { text, date } = make(place);
  const hash = sha256(text);
  insertRecord(tx).run({ seq: place.seq, kind, date, time: place.time, ref, text, hash });
  return { seq: place.seq, hash, time: place.time };
}

// ---------------------------------------------------------------- what is published

export type PublishedRecord = { text: string; hash: string };

export type DaySummary = {
  date: string;
  terms_hash: string;
  house_commitment: string;
  /** The hash of the day's last record; null before its first. */
  head: string | null;
  entries: number;
  draws: number;
  /** Draws made with the house seed because the beacon did not answer. */
  house: number;
  pending: number;
  over: boolean;
  /** Over, and every entry of the day drawn: the house seed is published. */
  closed: boolean;
};

const isOver = (date: string, at: Date) => date < kathmanduDate(at);

function daySummaries(at: Date, where?: { date: string }): DaySummary[] {
  const stats = db
    .select({
      date: drawRecords.date,
      entries: sql<number>`sum(${drawRecords.kind} = 'entry')`,
      draws: sql<number>`sum(${drawRecords.kind} = 'draw')`,
      house: sql<number>`sum(${drawRecords.kind} = 'draw' and ${drawRecords.text} like '%"source":"house"%')`,
      last: sql<number>`max(${drawRecords.seq})`,
    })
    .from(drawRecords)
    .where(where ? eq(drawRecords.date, where.date) : undefined)
    .groupBy(drawRecords.date)
    .all();
  const byDate = new Map(stats.map((s) => [s.date, s]));
  const pending = new Map(
    db
      .select({ date: drawQueue.date, n: countRows() })
      .from(drawQueue)
      .groupBy(drawQueue.date)
      .all()
      .map((p) => [p.date, p.n]),
  );
  const days = db
    .select({ date: fairDays.date, terms_hash: fairDays.terms_hash, house_commitment: fairDays.house_commitment })
    .from(fairDays)
    .where(where ? eq(fairDays.date, where.date) : undefined)
    .orderBy(desc(fairDays.date))
    .all();
  return days.map((d) => {
    const s = byDate.get(d.date);
    const head = s
      ? (db.select({ hash: drawRecords.hash }).from(drawRecords).where(eq(drawRecords.seq, s.last)).get()?.hash ?? null)
      : null;
    const over = isOver(d.date, at);
    const waiting = pending.get(d.date) ?? 0;
    return {
      ...d,
      head,
      entries: s?.entries ?? 0,
      draws: s?.draws ?? 0,
      house: s?.house ?? 0,
      pending: waiting,
      over,
      closed: over && waiting === 0,
    };
  });
}

/** Every committed day, newest first (a committed tomorrow included). */
export function listDays(at: Date = clockNow()): DaySummary[] {
  commitAhead(db, at);
  announceNow(at);
  return daySummaries(at);
}

/** The campaign file a checker pins: every day's terms hash, house commitment and head. */
export const campaignFile = (at: Date = clockNow()) => ({ days: listDays(at) });

export type PublishedDay = DaySummary & {
  terms: string;
  chain: ChainInfo | null;
  house_seed: string | null;
  previous_head: string;
  records: PublishedRecord[];
};

/** A day's chain from its first record to its last: the seqs it spans (null for a day without records). */
function daySpan(date: string): { first: number; last: number } | null {
  const span = db
    .select({ first: sql<number | null>`min(${drawRecords.seq})`, last: sql<number | null>`max(${drawRecords.seq})` })
    .from(drawRecords)
    .where(eq(drawRecords.date, date))
    .get();
  return span?.first != null && span.last != null ? { first: span.first, last: span.last } : null;
}

/** The records from seq `from` to `to`, in chain order (a neighbouring day's that fell between included). */
const recordsBetween = (from: number, to: number): PublishedRecord[] =>
  db
    .select({ text: drawRecords.text, hash: drawRecords.hash })
    .from(drawRecords)
    .where(and(gte(drawRecords.seq, from), lte(drawRecords.seq, to)))
    .orderBy(asc(drawRecords.seq))
    .all();

/** A day's terms, beacon, chain head before it and house seed once closed: all but its records. */
function dayHead(date: string, at: Date, span: { first: number } | null): Omit<PublishedDay, "records"> | null {
  const summary = daySummaries(at, { date })[0];
  if (!summary) return null;
  const row = dayRow(db).get({ date })!;
  const before = span ? span.first - 1 : null;
  const previous_head =
    before === null
      ? null
      : before === 0
        ? GENESIS_PREV
        : (db.select({ hash: drawRecords.hash }).from(drawRecords).where(eq(drawRecords.seq, before)).get()?.hash ??
          null);
  const terms = JSON.parse(row.terms) as Terms;
  return {
    ...summary,
    terms: row.terms,
    chain: terms.chain,
    house_seed: summary.closed ? unseal(row.house_sealed, date).toString("hex") : null,
    previous_head: previous_head ?? lastHashBefore(date),
  };
}

/**
 * A day's full record: its terms, the chain from the day's first record to its last (records of
 * a neighbouring day that fell between them included, as the chain has them), the head before
 * it, and the house seed once the day is closed. Null for a day never committed.
 */
export function publishedDay(date: string, at: Date = clockNow()): PublishedDay | null {
  const span = daySpan(date);
  const head = dayHead(date, at, span);
  return head && { ...head, records: span ? recordsBetween(span.first, span.last) : [] };
}

/** Records on one page of a day's public page: a busy day has tens of thousands, its file has them all. */
export const DAY_PAGE_RECORDS = 200;

/**
 * One page of a day's record for its public page: the day's head and the records of page `page`
 * (from 1), or of the page that holds record `seq` when it is given and the day's. Pages past the
 * last show the last.
 */
export function publishedDayPage(
  date: string,
  { page = 1, seq, size = DAY_PAGE_RECORDS }: { page?: number; seq?: number; size?: number },
  at: Date = clockNow(),
): (Omit<PublishedDay, "records"> & { records: PublishedRecord[]; page: number; pages: number }) | null {
  const span = daySpan(date);
  const head = dayHead(date, at, span);
  if (!head) return null;
  if (!span) return { ...head, records: [], page: 1, pages: 1 };
  const pages = Math.ceil((span.last - span.first + 1) / size);
  const wanted =
    seq !== undefined && seq >= span.first && seq <= span.last
      ? Math.floor((seq - span.first) / size) + 1
      : Math.min(Math.max(1, Number.isFinite(page) ? Math.floor(page) : 1), pages);
  const from = span.first + (wanted - 1) * size;
  return {
    ...head,
    records: recordsBetween(from, Math.min(span.last, from + size - 1)),
    page: wanted,
    pages,
  };
}

/** The chain's head before a day without records: the last record of an earlier day. */
function lastHashBefore(date: string): string {
  return (
    db
      .select({ hash: drawRecords.hash })
      .from(drawRecords)
      .where(sql`${drawRecords.date} < ${date}`)
      .orderBy(desc(drawRecords.seq))
      .limit(1)
      .get()?.hash ?? GENESIS_PREV
  );
}

/** A visitor's own draw, found by its public id: when it was fixed, its round, and its result once made. */
export type OwnDraw = {
  id: string;
  date: string;
  round: Round;
  seq: number;
  fixedAt: string;
  beaconRound: number | null;
  drawn: { seq: number; at: string; amount: number; outcome: "pool" | "fallback" | "none"; house: boolean } | null;
};

const recordsOfRef = prepared((q) =>
  q
    .select({ seq: drawRecords.seq, kind: drawRecords.kind, text: drawRecords.text })
    .from(drawRecords)
    .where(eq(drawRecords.ref, sql.placeholder("ref")))
    .orderBy(asc(drawRecords.seq))
    .prepare(),
);

/** The entries and draws of a public id (normalised), oldest first. */
export function ownDraws(ref: string): OwnDraw[] {
  const found: OwnDraw[] = [];
  for (const row of recordsOfRef(db).all({ ref })) {
    const r = JSON.parse(row.text) as Record<string, never>;
    if (row.kind === "entry") {
      found.push({
        id: r.id,
        date: r.date,
        round: r.round,
        seq: row.seq,
        fixedAt: r.time,
        beaconRound: r.beacon_round,
        drawn: null,
      });
    } else {
      const entry = found.find((f) => f.seq === (r.entry as number));
      const prize = r.prize as { amount: number; outcome: "pool" | "fallback" | "none" };
      if (entry) {
        entry.drawn = {
          seq: row.seq,
          at: r.time,
          amount: prize.amount,
          outcome: prize.outcome,
          house: r.source === "house",
        };
      }
    }
  }
  return found;
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A public id one character or one swap away from `ref` that has a draw: the "did you mean" of a near miss. */
export function nearReference(ref: string): string | null {
  const plain = ref.replace(/-/g, "");
  const near = new Set<string>();
  for (let i = 0; i < plain.length; i++) {
    for (const c of CROCKFORD) if (c !== plain[i]) near.add(plain.slice(0, i) + c + plain.slice(i + 1));
    if (i + 1 < plain.length && plain[i] !== plain[i + 1])
      near.add(plain.slice(0, i) + plain[i + 1] + plain[i] + plain.slice(i + 2));
  }
  const candidates = [...near].map((p) => `${p.slice(0, 4)}-${p.slice(4, 8)}-${p.slice(8)}`);
  const hit = db
    .select({ ref: drawRecords.ref })
    .from(drawRecords)
    .where(inArray(drawRecords.ref, candidates))
    .limit(1)
    .get();
  return hit?.ref ?? null;
}

/** The SMS that told the observers each closed day's head, newest first. */
export const announcements = () =>
  db.select().from(fairAnnouncements).orderBy(desc(fairAnnouncements.date)).limit(60).all();
