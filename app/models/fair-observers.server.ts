/**
 * The observers of the fair draws (docs/decisions/0019-fair-draws.md): phone numbers head office
 * names (an auditor, a notary, a journalist) that receive, by SMS through the usual sender, each
 * closed day's chain head and the next day's terms hash, so nobody holding the server can rewrite
 * a day unseen. Every send is listed on /fair-draws. Head office's screen also shows how many of a
 * day's draws fell back to the house seed, and the beacon's state.
 */
import { and, desc, eq, gt, lt, notInArray, sql } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import { audit, diff } from "~/models/audit.server";
import { fail, type Result } from "~/utils/failure";
import { isHeadOffice, type ScopedActor } from "~/models/scope.server";
import { queueMessage, wakeSmsWorker } from "~/models/sms.server";
import { transact } from "~/models/transaction.server";
import { normalizePhone } from "~/utils/phone";
import { publicBaseUrl } from "~/utils/share-link.server";
import { kathmanduDate, now as clockNow, nowIso, shiftDate } from "~/utils/time";

const { drawQueue, drawRecords, fairAnnouncements, fairDays, settings } = schema;
const KEY = "fair_observers";
export const MAX_OBSERVERS = 10;

export const OBSERVER_MESSAGES = {
  notAPhone: (line: number) => `Line ${line} is not a mobile number (98XXXXXXXX).`,
  tooMany: `At most ${MAX_OBSERVERS} observers.`,
  headOfficeOnly: "Only head office names the observers.",
  saved: "Observers saved.",
} as const;

/** The observers' phones (10-digit mobiles). */
export function observerPhones(exec: Executor = db): string[] {
  const row = exec.select({ value: settings.value }).from(settings).where(eq(settings.key, KEY)).get();
  try {
    const value = row ? (JSON.parse(row.value) as unknown) : [];
    return Array.isArray(value) ? value.filter((p): p is string => typeof p === "string") : [];
  } catch {
    return [];
  }
}

/** Sets the observers from one phone a line (blank lines dropped), head office only, audited. */
export function setObservers(actor: ScopedActor, text: string): Result<{ phones: string[] }> {
  if (!isHeadOffice(actor.scope)) return fail.forbidden(OBSERVER_MESSAGES.headOfficeOnly);
  const lines = text.split(/\r?\n/);
  const phones: string[] = [];
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    const phone = normalizePhone(line.trim());
    if (!phone) return fail.field("phones", OBSERVER_MESSAGES.notAPhone(i + 1));
    if (!phones.includes(phone)) phones.push(phone);
  }
  if (phones.length > MAX_OBSERVERS) return fail.field("phones", OBSERVER_MESSAGES.tooMany);
  return transact((tx) => {
    const before = observerPhones(tx);
    const value = JSON.stringify(phones);
    tx.insert(settings)
      .values({ key: KEY, value, updated_at: nowIso() })
      .onConflictDoUpdate({ target: settings.key, set: { value, updated_at: nowIso() } })
      .run();
    audit(tx, actor, {
      action: "setting.update",
      entityType: "setting",
      entityId: KEY,
      changes: diff({ [KEY]: before }, { [KEY]: phones }),
    });
    return { ok: true as const, phones };
  });
}

/** The last record of a day (its closing head once closed), and its counts. */
function dayClose(exec: Executor, date: string) {
  return exec
    .select({
      entries: sql<number>`sum(${drawRecords.kind} = 'entry')`,
      draws: sql<number>`sum(${drawRecords.kind} = 'draw')`,
      house: sql<number>`sum(${drawRecords.kind} = 'draw' and ${drawRecords.text} like '%"source":"house"%')`,
      head: sql<string | null>`(select hash from draw_records where date = ${date} order by seq desc limit 1)`,
    })
    .from(drawRecords)
    .where(eq(drawRecords.date, date))
    .get();
}

/**
 * Tells the observers each day that has closed since (over, nothing waiting): its closing head and
 * the next day's terms hash, one SMS each, recorded once per day (the row's key refuses a second).
 * Inside the caller's write transaction; returns whether SMS were queued.
 */
function closedUnannounced(exec: Executor, at: Date) {
  const announced = exec.select({ date: fairAnnouncements.date }).from(fairAnnouncements);
  const waiting = exec.selectDistinct({ date: drawQueue.date }).from(drawQueue);
  return exec
    .select({ date: fairDays.date })
    .from(fairDays)
    .where(
      and(
        lt(fairDays.date, kathmanduDate(at)),
        notInArray(fairDays.date, announced),
        notInArray(fairDays.date, waiting),
      ),
    )
    .orderBy(fairDays.date)
    .all();
}

export function announceClosedDays(exec: Executor, at: Date = clockNow()): boolean {
  const days = closedUnannounced(exec, at);
  if (!days.length) return false;
  const phones = observerPhones(exec);
  for (const { date } of days) {
    const close = dayClose(exec, date);
    const head = close?.head ?? "-";
    const next = exec
      .select({ terms_hash: fairDays.terms_hash })
      .from(fairDays)
      .where(eq(fairDays.date, shiftDate(date, 1)))
      .get();
    const text =
      `Thrill fair draws ${date} closed: ${close?.entries ?? 0} entries, ${close?.draws ?? 0} draws` +
      `${close?.house ? `, ${close.house} with the house seed` : ""}. Head ${head}.` +
      `${next ? ` Terms of ${shiftDate(date, 1)}: ${next.terms_hash}.` : ""} ${publicBaseUrl()}/fair-draws`;
    const inserted = exec
      .insert(fairAnnouncements)
      .values({
        date,
        head,
        next_terms_hash: next?.terms_hash ?? null,
        phones: phones.length,
        text,
        sent_at: at.toISOString(),
      })
      .onConflictDoNothing()
      .run();
    if (inserted.changes !== 1) continue;
    for (const to of phones) queueMessage(exec, { to, text, purpose: "notify" });
  }
  return phones.length > 0;
}

/** Announces what closed (its own transaction) and wakes the SMS worker when it queued. */
export function announceNow(at: Date = clockNow()): void {
  // A look first, so a page view takes the write lock only when a day is to be announced.
  if (!closedUnannounced(db, at).length) return;
  const queued = transact((tx) => announceClosedDays(tx, at));
  if (queued === true) wakeSmsWorker();
}

/** Head office's view: each recent day's draws and how many fell back to the house seed. */
export function fallbackCounts(limit = 14) {
  return db
    .select({
      date: drawRecords.date,
      draws: sql<number>`sum(${drawRecords.kind} = 'draw')`,
      house: sql<number>`sum(${drawRecords.kind} = 'draw' and ${drawRecords.text} like '%"source":"house"%')`,
    })
    .from(drawRecords)
    .groupBy(drawRecords.date)
    .orderBy(desc(drawRecords.date))
    .limit(limit)
    .all();
}

/** This process's running count of today's house-seed draws: the records read up to `seq`. */
let tally = { date: "", seq: 0, house: 0 };

/**
 * Draws of today that fell back to the house seed (for /healthz, polled often): each call reads only
 * the day's records appended since the last (the chain's seq only grows), not the whole day again.
 */
export function houseDrawsToday(at: Date = clockNow()): number {
  const today = kathmanduDate(at);
  if (tally.date !== today) tally = { date: today, seq: 0, house: 0 };
  const since = db
    .select({
      seq: sql<number | null>`max(${drawRecords.seq})`,
      house: sql<number | null>`sum(${drawRecords.kind} = 'draw' and ${drawRecords.text} like '%"source":"house"%')`,
    })
    .from(drawRecords)
    .where(and(eq(drawRecords.date, today), gt(drawRecords.seq, tally.seq)))
    .get();
  if (since?.seq) tally = { date: today, seq: since.seq, house: tally.house + (since.house ?? 0) };
  return tally.house;
}
