/**
 * The integrity desk's rules and what each reason says (decision 21), without the database: the
 * thresholds, and for each reason the finding its rows make: the subject, the strength (0 to 100,
 * the desk's order), the evidence (a summary, figures and the rows behind it, linked) and the
 * entries whose prizes the flag holds. The write path (integrity-write.server.ts) and the full
 * recompute (integrity-scan.server.ts, integrity-stats.server.ts) build the same findings from the
 * same rows, so a flag raised either way is the same flag.
 */
import type { INTEGRITY_REASONS, INTEGRITY_SUBJECTS } from "@db/enums";
import { SAME_SCREENSHOT_BITS } from "~/utils/image-hash.server";
import { displayDateTime, kathmanduDate } from "~/utils/time";

export type IntegrityReason = (typeof INTEGRITY_REASONS)[number];
export type SubjectType = (typeof INTEGRITY_SUBJECTS)[number];

/** The rules' numbers, in one place (decision 21 gives the reasons for each). */
export const RULES = {
  /** address-burst: this many pre-registrations from one range within `minutes`. */
  burst: { entries: 10, minutes: 10 },
  /** phone-run: this many entries whose phones, in order, step by at most `step`, made within `minutes`. */
  phoneRun: { entries: 4, step: 3, minutes: 60 },
  /** off-hours: this many registrations by one staff user within `minutes`. */
  rapid: { registrations: 5, minutes: 10 },
  /** The showrooms' hours when head office has set none (Kathmandu time). */
  hours: { opens: "09:00", closes: "19:00" },
  /** poaching: a counter grant followed by the purchase at that branch within this many days. */
  poachingDays: 7,
  /** improbable-wins and poaching: the family-wise level of Holm's procedure over every subject tested. */
  alpha: 0.001,
  /** shared-screenshot: 256-bit hashes within this many bits are one screenshot. */
  screenshotBits: SAME_SCREENSHOT_BITS,
  /** Days an entry's address is kept. */
  addressDays: 30,
  /** The most entries one flag holds, and the most rows its evidence lists. */
  maxEntries: 1000,
  maxRows: 50,
} as const;

/** A row behind a flag, as the desk links it. */
export type EvidenceRow = {
  kind: "entry" | "registration" | "user" | "branch" | "grant" | "draw";
  /** The record's address (its slug), where it has a page. */
  slug?: string | null;
  label: string;
  at?: string | null;
  detail?: string | null;
};

export type Evidence = {
  subject: { label: string; kind?: EvidenceRow["kind"]; slug?: string | null };
  summary: string;
  figures: { label: string; value: string }[];
  rows: EvidenceRow[];
  /** Rows left out of the list (beyond RULES.maxRows). */
  more?: number;
};

/** What a rule found: one flag's worth. `entries` are the pre-registrations whose prizes it holds. */
export type Finding = {
  reason: IntegrityReason;
  subjectType: SubjectType;
  subjectKey: string;
  branchId: number | null;
  userId: number | null;
  strength: number;
  evidence: Evidence;
  entries: number[];
};

const clamp = (n: number) => Math.max(0, Math.min(100, Math.round(n * 10) / 10));
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-IN")} ${n === 1 ? one : many}`;
/** -log10 of a probability as a strength: 0.001 is 30, 1e-10 is 100. */
export const strengthOfP = (p: number) => clamp(p <= 0 ? 100 : -10 * Math.log10(p));
export const formatP = (p: number) => (p <= 0 ? "below 1e-300" : p < 0.0001 ? p.toExponential(1) : p.toPrecision(2));

function listed(rows: EvidenceRow[]): Pick<Evidence, "rows" | "more"> {
  return rows.length > RULES.maxRows
    ? { rows: rows.slice(0, RULES.maxRows), more: rows.length - RULES.maxRows }
    : { rows };
}
const held = (ids: number[]) => [...new Set(ids)].slice(0, RULES.maxEntries);

// ---------------------------------------------------------------- the rows the rules read

/** A pre-registration as the rules read it. */
export type EntryRow = {
  id: number;
  campaign?: string;
  slug: string;
  name: string;
  phone: string;
  citizenship_no: string;
  created_at: string;
  deleted_at: string | null;
  branch_id: number | null;
  created_by: number | null;
};

/** A finding about one entry: its subject fields (the staff user who made it, where that matters). */
const onEntry = (e: EntryRow, userId: number | null = null) => ({
  subjectType: "entry" as const,
  subjectKey: String(e.id),
  branchId: e.branch_id,
  userId,
});
const entrySubject = (e: EntryRow) => ({ label: `${e.name} · ${e.phone}`, kind: "entry" as const, slug: e.slug });

export const entryEvidence = (e: EntryRow, detail?: string | null): EvidenceRow => ({
  kind: "entry",
  slug: e.slug,
  label: `${e.name} · ${e.phone}`,
  at: e.created_at,
  detail: [e.deleted_at ? `deleted ${displayDateTime(e.deleted_at)}` : null, detail].filter(Boolean).join("; ") || null,
});

/** A registration as the rules read it. */
export type RegistrationRow = {
  id: number;
  slug: string;
  name: string;
  phone: string;
  citizenship_no: string;
  engine_no: string;
  chasis_no: string;
  registration_no: string;
  bill_no: string;
  branch_id: number;
  preregistration_id: number;
  created_by: number | null;
  created_at: string;
  deleted_at: string | null;
};

export const registrationEvidence = (r: RegistrationRow, detail?: string | null): EvidenceRow => ({
  kind: "registration",
  slug: r.slug,
  label: `${r.name} · ${r.phone} · bill ${r.bill_no}`,
  at: r.created_at,
  detail: [r.deleted_at ? `deleted ${displayDateTime(r.deleted_at)}` : null, detail].filter(Boolean).join("; ") || null,
});

const firstOf = <T extends { id: number }>(rows: T[]) => rows.reduce((a, b) => (b.id < a.id ? b : a));

// ---------------------------------------------------------------- the reasons

/**
 * shared-citizenship: one citizenship number behind entries or registrations with different phones.
 * The subject is the first entry with the number; the flag holds every entry of the group.
 */
export function sharedCitizenship(
  citizenshipNo: string,
  entries: EntryRow[],
  registrations: RegistrationRow[] = [],
): Finding | null {
  const phones = new Set([...entries.map((e) => e.phone), ...registrations.map((r) => r.phone)]);
  if (phones.size < 2 || !entries.length) return null;
  const first = firstOf(entries);
  return {
    reason: "shared-citizenship",
    ...onEntry(first),
    strength: clamp(40 + 15 * (phones.size - 2)),
    evidence: {
      subject: entrySubject(first),
      summary: `${plural(phones.size, "phone")} behind citizenship number ${citizenshipNo}`,
      figures: [
        { label: "Citizenship No/PAN", value: citizenshipNo },
        { label: "Phones", value: String(phones.size) },
        { label: "Pre-registrations", value: String(entries.length) },
        { label: "Registrations", value: String(registrations.length) },
      ],
      ...listed([...entries.map((e) => entryEvidence(e)), ...registrations.map((r) => registrationEvidence(r))]),
    },
    entries: held([...entries.map((e) => e.id), ...registrations.map((r) => r.preregistration_id)]),
  };
}

/**
 * shared-vehicle: an engine, chassis or vehicle registration number, or a branch's bill number, in two
 * registrations, deleted ones counted. The subject is the latest registration; every one is held.
 */
export function sharedVehicle(latest: RegistrationRow, others: RegistrationRow[]): Finding | null {
  if (!others.length) return null;
  const same = (r: RegistrationRow) =>
    [
      r.engine_no === latest.engine_no ? `engine ${r.engine_no}` : null,
      r.chasis_no === latest.chasis_no ? `chassis ${r.chasis_no}` : null,
      r.registration_no === latest.registration_no ? `vehicle ${r.registration_no}` : null,
      r.branch_id === latest.branch_id && r.bill_no === latest.bill_no ? `bill ${r.bill_no}` : null,
    ].filter(Boolean) as string[];
  const shared = [...new Set(others.flatMap(same))];
  return {
    reason: "shared-vehicle",
    subjectType: "registration",
    subjectKey: String(latest.id),
    branchId: latest.branch_id,
    userId: latest.created_by,
    strength: clamp(60 + 10 * (others.length - 1)),
    evidence: {
      subject: { label: `${latest.name} · bill ${latest.bill_no}`, kind: "registration", slug: latest.slug },
      summary: `${shared.join(", ")} also in ${plural(others.length, "other registration")}`,
      figures: [
        { label: "Shared", value: shared.join(", ") },
        { label: "Registrations", value: String(others.length + 1) },
        { label: "Deleted among them", value: String(others.filter((o) => o.deleted_at).length) },
      ],
      ...listed([registrationEvidence(latest), ...others.map((o) => registrationEvidence(o, same(o).join(", ")))]),
    },
    entries: held([latest.preregistration_id, ...others.map((o) => o.preregistration_id)]),
  };
}

/** remade-entry: an entry deleted and made again for the same phone or citizenship number. */
export function remadeEntry(entry: EntryRow, deleted: EntryRow[]): Finding | null {
  const before = deleted.filter((d) => d.deleted_at && d.id !== entry.id && d.created_at <= entry.created_at);
  if (!before.length) return null;
  const how = (d: EntryRow) =>
    [
      d.phone === entry.phone ? "same phone" : null,
      d.citizenship_no === entry.citizenship_no ? "same citizenship" : null,
    ]
      .filter(Boolean)
      .join(", ");
  return {
    reason: "remade-entry",
    ...onEntry(entry, entry.created_by),
    strength: clamp(35 + 10 * (before.length - 1)),
    evidence: {
      subject: entrySubject(entry),
      summary: `Made again after ${plural(before.length, "deleted entry", "deleted entries")} of the same ${before.some((d) => d.phone === entry.phone) ? "phone" : "citizenship number"}`,
      figures: [{ label: "Deleted before", value: String(before.length) }],
      ...listed([entryEvidence(entry, "made again"), ...before.map((d) => entryEvidence(d, how(d)))]),
    },
    entries: held([entry.id]),
  };
}

/** An address burst's subject: its range and the Kathmandu day of its first entry (one flag a range a day). */
export const burstKey = (range: string, firstCreatedAt: string) => `${range} ${kathmanduDate(firstCreatedAt)}`;

/** address-burst: many pre-registrations from one address range in a short window (one flag a range a day). */
export function addressBurst(range: string, rows: (EntryRow & { address: string })[]): Finding | null {
  if (rows.length < RULES.burst.entries) return null;
  const first = firstOf(rows);
  const day = kathmanduDate(first.created_at);
  const addresses = new Set(rows.map((r) => r.address));
  return {
    reason: "address-burst",
    subjectType: "range",
    subjectKey: burstKey(range, first.created_at),
    branchId: null,
    userId: null,
    strength: clamp(30 + 3 * (rows.length - RULES.burst.entries)),
    evidence: {
      subject: { label: `${range} on ${day.replaceAll("-", "/")}` },
      summary: `${plural(rows.length, "pre-registration")} from ${range} within ${RULES.burst.minutes} minutes`,
      figures: [
        { label: "Range", value: range },
        { label: "Addresses", value: String(addresses.size) },
        { label: "Pre-registrations", value: String(rows.length) },
        { label: "From", value: displayDateTime(first.created_at) },
      ],
      ...listed(rows.map((r) => entryEvidence(r, r.address))),
    },
    entries: held(rows.map((r) => r.id)),
  };
}

/** phone-run: consecutive or near-consecutive phones entered in a short window (a batch of SIM cards). */
export function phoneRun(rows: EntryRow[]): Finding | null {
  if (rows.length < RULES.phoneRun.entries) return null;
  const byPhone = [...rows].sort((a, b) => a.phone.localeCompare(b.phone));
  const first = byPhone[0];
  const last = byPhone[byPhone.length - 1];
  return {
    reason: "phone-run",
    ...onEntry(first),
    strength: clamp(30 + 8 * (rows.length - RULES.phoneRun.entries)),
    evidence: {
      subject: entrySubject(first),
      summary: `${plural(rows.length, "phone")} from ${first.phone} to ${last.phone} entered within ${RULES.phoneRun.minutes} minutes`,
      figures: [
        { label: "Phones", value: `${first.phone} to ${last.phone}` },
        { label: "Pre-registrations", value: String(rows.length) },
      ],
      ...listed(byPhone.map((r) => entryEvidence(r))),
    },
    entries: held(rows.map((r) => r.id)),
  };
}

/** shared-screenshot: one screenshot (by its perceptual hash) behind entries with different phones. */
export function sharedScreenshot(rows: (EntryRow & { bits: number; dhash: string })[]): Finding | null {
  const phones = new Set(rows.map((r) => r.phone));
  if (phones.size < 2) return null;
  const first = firstOf(rows);
  return {
    reason: "shared-screenshot",
    ...onEntry(first),
    strength: clamp(45 + 15 * (phones.size - 2)),
    evidence: {
      subject: entrySubject(first),
      summary: `One screenshot behind ${plural(rows.length, "pre-registration")} with ${plural(phones.size, "phone")}`,
      figures: [
        { label: "Pre-registrations", value: String(rows.length) },
        {
          label: "Largest difference",
          value: `${Math.max(...rows.map((r) => r.bits))} of 256 bits (the rule allows ${RULES.screenshotBits})`,
        },
      ],
      ...listed(rows.map((r) => entryEvidence(r, `hash ${r.dhash}, ${r.bits} bits from the first`))),
    },
    entries: held(rows.map((r) => r.id)),
  };
}

/** off-hours: a registration made outside the showrooms' hours. */
export function outsideHours(r: RegistrationRow, localTime: string, hours: { opens: string; closes: string }): Finding {
  return {
    reason: "off-hours",
    subjectType: "registration",
    subjectKey: String(r.id),
    branchId: r.branch_id,
    userId: r.created_by,
    strength: 20,
    evidence: {
      subject: { label: `${r.name} · bill ${r.bill_no}`, kind: "registration", slug: r.slug },
      summary: `Registered at ${localTime}, outside the showrooms' hours (${hours.opens} to ${hours.closes})`,
      figures: [
        { label: "Registered at", value: displayDateTime(r.created_at) },
        { label: "Hours", value: `${hours.opens} to ${hours.closes}` },
      ],
      rows: [registrationEvidence(r)],
    },
    entries: [r.preregistration_id],
  };
}

/** off-hours: many registrations by one staff user within minutes (one flag a user a day). */
export function rapidRegistrations(
  user: { id: number; slug: string; name: string },
  rows: RegistrationRow[],
): Finding | null {
  if (rows.length < RULES.rapid.registrations) return null;
  const first = firstOf(rows);
  const day = kathmanduDate(first.created_at);
  return {
    reason: "off-hours",
    subjectType: "user",
    subjectKey: `${user.id} ${day}`,
    branchId: first.branch_id,
    userId: user.id,
    strength: clamp(30 + 10 * (rows.length - RULES.rapid.registrations)),
    evidence: {
      subject: { label: `${user.name} on ${day.replaceAll("-", "/")}`, kind: "user", slug: user.slug },
      summary: `${plural(rows.length, "registration")} by ${user.name} within ${RULES.rapid.minutes} minutes`,
      figures: [
        { label: "Registrations", value: String(rows.length) },
        { label: "From", value: displayDateTime(first.created_at) },
      ],
      ...listed(rows.map((r) => registrationEvidence(r))),
    },
    entries: held(rows.map((r) => r.preregistration_id)),
  };
}
