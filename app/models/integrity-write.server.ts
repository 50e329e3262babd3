/**
 * Integrity signals one write can raise, in that write's own transaction (decision 21): a new
 * pre-registration keeps the address it came from and may raise shared-citizenship, remade-entry or
 * address-burst; a registration made, edited or restored may raise shared-vehicle, shared-citizenship
 * or off-hours. Each is a few reads on indexes (nothing at all found for an honest write); a flag is
 * written only when one is found. A fault here is logged and never undoes the customer's write.
 */
import { and, desc, eq, gte, isNotNull, isNull, ne, sql, type SQL } from "drizzle-orm";
import { schema, type Executor } from "@db/index";
import { prepared } from "@db/prepared";
import type { Preregistration, Registration } from "@db/schema";
import { addressRange, plainAddress } from "~/utils/address-range";
import { nowIso } from "~/utils/time";
import {
  addressBurst,
  burstKey,
  outsideHours,
  remadeEntry,
  RULES,
  sharedCitizenship,
  sharedVehicle,
  type EntryRow,
  type Finding,
  type RegistrationRow,
} from "./integrity-findings";
import { attachToFlag, raiseFlag } from "./integrity-flags.server";
import { getSetting } from "./settings.server";

const { preregistrations: P, registrations: R, entryAddresses: A } = schema;

/** The columns of an entry the rules read. */
export const ENTRY_COLUMNS = {
  id: P.id,
  campaign: P.campaign,
  slug: P.slug,
  name: P.name,
  phone: P.phone,
  citizenship_no: P.citizenship_no,
  created_at: P.created_at,
  deleted_at: P.deleted_at,
  branch_id: P.branch_id,
  created_by: P.created_by,
};

/** The columns of a registration the rules read. */
export const REGISTRATION_COLUMNS = {
  id: R.id,
  slug: R.slug,
  name: R.name,
  phone: R.phone,
  citizenship_no: R.citizenship_no,
  engine_no: R.engine_no,
  chasis_no: R.chasis_no,
  registration_no: R.registration_no,
  bill_no: R.bill_no,
  branch_id: R.branch_id,
  preregistration_id: R.preregistration_id,
  created_by: R.created_by,
  created_at: R.created_at,
  deleted_at: R.deleted_at,
};

// ---------------------------------------------------------------- showroom hours

export type ShowroomHours = { opens: string; closes: string };

export const HOURS_SETTING = "integrity_hours";

/** The showrooms' hours (Kathmandu), as head office set them on the desk, or the rule's default. */
export function showroomHours(): ShowroomHours {
  const set = getSetting<Partial<ShowroomHours> | null>(HOURS_SETTING, null);
  const time = (v: unknown) => typeof v === "string" && /^([01]\d|2[0-3]):[0-5]\d$/.test(v);
  return set && time(set.opens) && time(set.closes) ? { opens: set.opens!, closes: set.closes! } : { ...RULES.hours };
}

/** An instant's Kathmandu wall-clock time, "HH:mm" (Nepal keeps one offset, UTC+05:45). */
export const kathmanduTime = (iso: string) =>
  new Date(Date.parse(iso) + (5 * 60 + 45) * 60_000).toISOString().slice(11, 16);

/** Whether a Kathmandu "HH:mm" falls outside the hours (hours past midnight, as 20:00 to 02:00, are read as such). */
export function outside(time: string, hours: ShowroomHours): boolean {
  // Opening and closing at the same minute: open all day, nothing is outside.
  if (hours.opens === hours.closes) return false;
  return hours.opens < hours.closes
    ? time < hours.opens || time >= hours.closes
    : time < hours.opens && time >= hours.closes;
}

// ---------------------------------------------------------------- a new pre-registration

const insertAddress = prepared((q) =>
  q
    .insert(A)
    .values({
      preregistration_id: sql.placeholder("id"),
      address: sql.placeholder("address"),
      range: sql.placeholder("range"),
      created_at: sql.placeholder("at"),
    })
    .onConflictDoNothing()
    .prepare(),
);

const entriesOfCitizenship = prepared((q) =>
  q
    .select(ENTRY_COLUMNS)
    .from(P)
    .where(eq(P.citizenship_no, sql.placeholder("citizenshipNo")))
    .orderBy(P.id)
    .limit(RULES.maxEntries)
    .prepare(),
);

const deletedOfPhone = prepared((q) =>
  q
    .select(ENTRY_COLUMNS)
    .from(P)
    .where(
      and(eq(P.campaign, sql.placeholder("campaign")), eq(P.phone, sql.placeholder("phone")), isNotNull(P.deleted_at)),
    )
    .limit(RULES.maxRows)
    .prepare(),
);

/** Entries of a range since an instant (at most one more than a burst needs to be a burst is not counted on). */
/** A range's first entries since an instant, at most as many as make a burst (a hot range costs no more than a quiet one). */
const rangeSince = prepared((q) =>
  q
    .select({ created_at: A.created_at })
    .from(A)
    .where(and(eq(A.range, sql.placeholder("range")), gte(A.created_at, sql.placeholder("since"))))
    .orderBy(A.created_at)
    .limit(RULES.burst.entries)
    .prepare(),
);

/** The entries of a range in a window, with their addresses (a burst's evidence). */
export function rangeEntries(exec: Executor, range: string, from: string, to: string) {
  return exec
    .select({ ...ENTRY_COLUMNS, address: A.address })
    .from(A)
    .innerJoin(P, eq(P.id, A.preregistration_id))
    .where(and(eq(A.range, range), gte(A.created_at, from), sql`${A.created_at} <= ${to}`))
    .orderBy(A.created_at)
    .limit(RULES.maxEntries)
    .all();
}

function raiseAll(exec: Executor, findings: (Finding | null)[]) {
  for (const f of findings) if (f) raiseFlag(exec, f);
}

/** Runs a screen so that a fault in it is logged and leaves the write it screens as it was. */
function guarded(exec: Executor, what: string, screen: (exec: Executor) => void) {
  try {
    // A savepoint: a fault half way through rolls back this screen's writes alone.
    (exec as unknown as { transaction: (fn: (tx: Executor) => void) => void }).transaction((tx) => screen(tx));
  } catch (error) {
    console.error(`[integrity] ${what} failed`, error);
  }
}

/**
 * A pre-registration just written, in its transaction: its address kept with its range (a visitor's;
 * an entry made at the counter keeps none), then the rules a single entry can break.
 */
export function screenNewEntry(exec: Executor, entry: Preregistration, rawAddress: string | null | undefined): void {
  const range = rawAddress ? addressRange(rawAddress) : null;
  const address = range && rawAddress ? plainAddress(rawAddress) : null;
  if (range && address) insertAddress(exec).run({ id: entry.id, address, range, at: entry.created_at });
  const sameNumber = entriesOfCitizenship(exec).all({ citizenshipNo: entry.citizenship_no });
  const samePhoneDeleted = deletedOfPhone(exec).all({ campaign: entry.campaign, phone: entry.phone });
  const shared = sameNumber.some((e) => e.phone !== entry.phone);
  const remade = samePhoneDeleted.length > 0 || sameNumber.some((e) => e.deleted_at);
  const since = new Date(Date.parse(entry.created_at) - RULES.burst.minutes * 60_000).toISOString();
  const window = range ? rangeSince(exec).all({ range, since }) : [];
  const burst = window.length >= RULES.burst.entries;
  // An honest entry stops here, having read three indexes and written its address.
  if (!shared && !remade && !burst) return;
  guarded(exec, "screening a new pre-registration", (tx) => {
    const self = { ...entry } as EntryRow;
    const deleted = [...samePhoneDeleted, ...sameNumber.filter((e) => e.deleted_at)];
    raiseAll(tx, [
      shared ? sharedCitizenship(entry.citizenship_no, sameNumber) : null,
      remade ? remadeEntry(self, deleted) : null,
    ]);
    if (burst && range) {
      // A range already flagged for the day takes this entry alone; the burst is raised in full once,
      // so a busy range (a carrier's shared address) does not make every entry read and rewrite the
      // burst's whole evidence. The recompute brings the evidence up to date.
      const key = {
        reason: "address-burst" as const,
        subjectType: "range" as const,
        subjectKey: burstKey(range, window[0].created_at),
      };
      if (!attachToFlag(tx, key, entry.id))
        raiseAll(tx, [addressBurst(range, rangeEntries(tx, range, since, entry.created_at))]);
    }
  });
}

// ---------------------------------------------------------------- a registration

/** The registrations other than `r` that share one of its vehicle numbers or its bill number at its branch. */
export function vehicleTwins(exec: Executor, r: RegistrationRow, { deletedOnly = false } = {}): RegistrationRow[] {
  // Each number is looked up on its own index: the deleted rows' when only they can match (a live
  // registration's numbers are unique among live ones), else the deleted rows' and the live rows'
  // (each index is partial: a condition on both at once would read the whole table).
  const states = deletedOnly ? [isNotNull(R.deleted_at)] : [isNotNull(R.deleted_at), isNull(R.deleted_at)];
  const byNumber = (cond: SQL, state: SQL) =>
    exec
      .select(REGISTRATION_COLUMNS)
      .from(R)
      .where(and(cond, ne(R.id, r.id), state))
      .limit(RULES.maxRows)
      .all();
  const found = new Map<number, RegistrationRow>();
  for (const cond of [
    eq(R.engine_no, r.engine_no),
    eq(R.chasis_no, r.chasis_no),
    eq(R.registration_no, r.registration_no),
    and(eq(R.branch_id, r.branch_id), eq(R.bill_no, r.bill_no))!,
  ])
    for (const state of states) for (const row of byNumber(cond, state)) found.set(row.id, row);
  return [...found.values()].sort((a, b) => a.id - b.id);
}

/** Entries and registrations of a citizenship number (the registration's view of shared-citizenship). */
export function citizenshipGroup(exec: Executor, citizenshipNo: string) {
  return {
    entries: entriesOfCitizenship(exec).all({ citizenshipNo }),
    registrations: exec
      .select(REGISTRATION_COLUMNS)
      .from(R)
      .where(eq(R.citizenship_no, citizenshipNo))
      .orderBy(desc(R.id))
      .limit(RULES.maxRows)
      .all(),
  };
}

/**
 * A registration just made, edited or restored, in its transaction: a vehicle or bill number it shares
 * with another (deleted) registration, a citizenship number behind other phones, a time outside the
 * showrooms' hours (when it is made).
 */
export function screenRegistration(exec: Executor, registration: Registration, { made = false } = {}): void {
  guarded(exec, "screening a registration", (tx) => {
    const r: RegistrationRow = { ...registration };
    const twins = vehicleTwins(tx, r, { deletedOnly: !registration.deleted_at });
    const group = citizenshipGroup(tx, r.citizenship_no);
    const phones = new Set([...group.entries.map((e) => e.phone), ...group.registrations.map((g) => g.phone)]);
    const hours = showroomHours();
    const at = made ? kathmanduTime(r.created_at ?? nowIso()) : null;
    raiseAll(tx, [
      twins.length ? sharedVehicle(r, twins) : null,
      phones.size > 1 ? sharedCitizenship(r.citizenship_no, group.entries, group.registrations) : null,
      at && outside(at, hours) ? outsideHours(r, at, hours) : null,
    ]);
  });
}
