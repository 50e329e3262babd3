/**
 * The integrity desk (decision 21): head office lists the flags (strongest and newest first, by reason,
 * status, branch, staff user and date; its page, GET /api/v1/integrity/flags and Flags.xls), opens one
 * with its evidence and the prizes it holds, and decides: clear (the held prizes go on: coupon print,
 * and the prize SMS a draw held back is sent now), hold (kept under review) or void (the prizes are
 * not paid: a row in prize_voids beside the draw's record, which is never changed). Every decision
 * is in the audit trail with its note. A branch scope is refused here too, whatever its role holds:
 * a branch never sees a flag.
 */
import { and, asc, count, desc, eq, gte, inArray, isNull, lt, type SQL } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import type { IntegrityFlag } from "@db/schema";
import { INTEGRITY_MESSAGES as M, type FlagAction, type FlagDecision, type FlagFilters } from "~/schemas/integrity";
import { fail, FailureError, type Result } from "~/utils/failure";
import { label } from "~/utils/labels";
import { runTable, type TableParams, type TableResult } from "~/utils/datatable.server";
import { EXPORT_PAGE_ROWS } from "~/utils/spreadsheet.server";
import { displayDateTime, kathmanduBounds, nowIso } from "~/utils/time";
import { audit } from "./audit.server";
import type { Evidence } from "./integrity-findings";
import { HOLDING, heldAmong, voidedAmong } from "./integrity-flags.server";
import { prizeSmsText } from "./registration.server";
import { findRegistration } from "./registration-list.server";
import { isHeadOffice, type Scope, type ScopedActor } from "./scope.server";
import { queueMessage, wakeSmsWorker } from "./sms.server";
import { transact } from "./transaction.server";

const { integrityFlags: F, integrityFlagEntries: E, prizeVoids: V, branches, users, preregistrations: P } = schema;
const { registrations: R, smsMessages: S, auditLog: A } = schema;

/** Refuses every scope but head office's (a FailureError: 403 in the API, a refusal on a page). */
export function assertHeadOffice(scope: Scope): void {
  if (!isHeadOffice(scope)) throw new FailureError(fail.forbidden(M.notHeadOffice));
}

// ---------------------------------------------------------------- the list

export type FlagRow = {
  id: number;
  reason: IntegrityFlag["reason"];
  subject_type: IntegrityFlag["subject_type"];
  subject: { label: string; slug: string | null; href: string | null };
  branch: { id: number; title: string } | null;
  user: { slug: string; name: string; email: string } | null;
  strength: number;
  evidence: Evidence;
  status: IntegrityFlag["status"];
  raised_at: string;
  updated_at: string;
  decided_at: string | null;
  note: string | null;
};

/** Where a record of the evidence opens in the back office. */
export function evidenceHref(kind: string | undefined, slug: string | null | undefined): string | null {
  if (!slug) return null;
  const pages: Record<string, string> = {
    entry: "/admin/preregistration/",
    registration: "/admin/registration/",
    user: "/admin/user/",
    branch: "/admin/branch/",
  };
  return kind && pages[kind] ? pages[kind] + slug : null;
}

function joined() {
  return db
    .select({
      flag: F,
      branch_title: branches.title,
      user_slug: users.slug,
      user_name: users.name,
      user_email: users.email,
    })
    .from(F)
    .leftJoin(branches, eq(branches.id, F.branch_id))
    .leftJoin(users, eq(users.id, F.user_id));
}

type Flat = ReturnType<ReturnType<typeof joined>["all"]>[number];

function shape(r: Flat): FlagRow {
  const f = r.flag;
  const evidence = JSON.parse(f.evidence) as Evidence;
  return {
    id: f.id,
    reason: f.reason,
    subject_type: f.subject_type,
    subject: {
      label: evidence.subject.label,
      slug: evidence.subject.slug ?? null,
      href: evidenceHref(evidence.subject.kind, evidence.subject.slug),
    },
    branch: f.branch_id ? { id: f.branch_id, title: r.branch_title ?? "" } : null,
    user: r.user_slug ? { slug: r.user_slug, name: r.user_name ?? "", email: r.user_email ?? "" } : null,
    strength: f.strength,
    evidence,
    status: f.status,
    raised_at: f.raised_at,
    updated_at: f.updated_at,
    decided_at: f.decided_at,
    note: f.note,
  };
}

const userIdOf = (slug: string) => db.select({ id: users.id }).from(users).where(eq(users.slug, slug)).get()?.id ?? -1;

/** The filters as conditions; no status is every status on the API, "all" is every status everywhere. */
function conditions(f: FlagFilters): (SQL | undefined)[] {
  const bounds = kathmanduBounds(f.from, f.to);
  return [
    f.reason ? eq(F.reason, f.reason) : undefined,
    f.status && f.status !== "all" ? eq(F.status, f.status) : undefined,
    f.branch ? eq(F.branch_id, f.branch) : undefined,
    f.user ? eq(F.user_id, userIdOf(f.user)) : undefined,
    bounds.from ? gte(F.raised_at, bounds.from) : undefined,
    bounds.to ? lt(F.raised_at, bounds.to) : undefined,
  ];
}

/** A page of the flags, strongest first and then newest; the search looks in the subject and the summary. */
export function listFlags(scope: Scope, params: TableParams, filters: FlagFilters = {}): TableResult<FlagRow> {
  assertHeadOffice(scope);
  return runTable(params, {
    orderable: { strength: F.strength, raised_at: F.raised_at, id: F.id },
    defaultOrder: { column: "strength", dir: "desc" },
    base: [],
    filters: conditions(filters),
    search: [F.evidence],
    count: (where) => db.select({ n: count() }).from(F).where(where).get()?.n ?? 0,
    rows: (where, orderBy, limit, offset) =>
      joined()
        .where(where)
        .orderBy(...orderBy, desc(F.raised_at), desc(F.id))
        .limit(limit)
        .offset(offset)
        .all()
        .map(shape),
  });
}

/** Every flag of the filters, strongest first, read in pages (Flags.xls). */
export function* exportFlags(scope: Scope, filters: FlagFilters = {}): Generator<FlagRow> {
  assertHeadOffice(scope);
  const where = and(...conditions(filters));
  for (let offset = 0; ; offset += EXPORT_PAGE_ROWS) {
    const page = joined()
      .where(where)
      .orderBy(desc(F.strength), desc(F.raised_at), desc(F.id))
      .limit(EXPORT_PAGE_ROWS)
      .offset(offset)
      .all();
    yield* page.map(shape);
    if (page.length < EXPORT_PAGE_ROWS) return;
  }
}

/** The columns of the list, on screen and in Flags.xls alike. */
export const FLAG_COLUMNS = [
  { header: "Raised", value: (r: FlagRow) => displayDateTime(r.raised_at) },
  { header: "Reason", value: (r: FlagRow) => label("integrity_reason", r.reason) },
  { header: "Strength", value: (r: FlagRow) => r.strength },
  { header: "Subject", value: (r: FlagRow) => `${label("integrity_subject", r.subject_type)}: ${r.subject.label}` },
  { header: "Evidence", value: (r: FlagRow) => r.evidence.summary },
  { header: "Branch", value: (r: FlagRow) => r.branch?.title ?? "" },
  { header: "Staff", value: (r: FlagRow) => (r.user ? `${r.user.name} (${r.user.email})` : "") },
  { header: "Status", value: (r: FlagRow) => label("flag_status", r.status) },
  { header: "Note", value: (r: FlagRow) => r.note ?? "" },
];

/** How many flags wait for head office (open: nobody has decided); null for a branch (it is never told). */
export function openFlagCount(scope: Scope): number | null {
  if (!isHeadOffice(scope)) return null;
  return db.select({ n: count() }).from(F).where(eq(F.status, "open")).get()?.n ?? 0;
}

/** The staff users the list filters by: every live user, by name. */
export function staffOptions(): { value: string; label: string }[] {
  return db
    .select({ value: users.slug, name: users.name, email: users.email })
    .from(users)
    .where(isNull(users.deleted_at))
    .orderBy(asc(users.name))
    .all()
    .map((u) => ({ value: u.value, label: `${u.name} (${u.email})` }));
}

// ---------------------------------------------------------------- one flag

export type HeldEntry = {
  slug: string;
  name: string;
  phone: string;
  registration: { slug: string; status: string } | null;
  hold: "held" | "voided" | "released";
};

export type FlagDetail = FlagRow & {
  entries: HeldEntry[];
  entries_count: number;
  /** Head office's decisions on it, oldest first, from the audit trail. */
  decisions: { at: string; by: string | null; action: string; note: string | null }[];
};

const ENTRIES_SHOWN = 50;

export function getFlag(scope: Scope, id: number): FlagDetail | null {
  assertHeadOffice(scope);
  const row = joined().where(eq(F.id, id)).get();
  if (!row) return null;
  const linked = db
    .select({
      id: P.id,
      slug: P.slug,
      name: P.name,
      phone: P.phone,
      registration_slug: R.slug,
      registration_status: R.status,
    })
    .from(E)
    .innerJoin(P, eq(P.id, E.preregistration_id))
    .leftJoin(R, eq(R.preregistration_id, P.id))
    .where(eq(E.flag_id, id))
    .orderBy(asc(P.id))
    .limit(ENTRIES_SHOWN)
    .all();
  const ids = linked.map((l) => l.id);
  const held = heldAmong(db, ids);
  const voided = voidedAmong(db, ids);
  const decisions = db
    .select({ at: A.at, by: A.user_email, action: A.action, changes: A.changes })
    .from(A)
    .where(and(eq(A.entity_type, "integrity_flag"), eq(A.entity_id, String(id))))
    .orderBy(asc(A.id))
    .all()
    .map((d) => {
      const changes = JSON.parse(d.changes) as { note?: { after?: string } };
      return { at: d.at, by: d.by, action: d.action, note: changes.note?.after ?? null };
    });
  return {
    ...shape(row),
    entries: linked.map((l) => ({
      slug: l.slug,
      name: l.name,
      phone: l.phone,
      registration: l.registration_slug ? { slug: l.registration_slug, status: l.registration_status ?? "" } : null,
      hold: voided.has(l.id) ? "voided" : held.has(l.id) ? "held" : "released",
    })),
    entries_count: db.select({ n: count() }).from(E).where(eq(E.flag_id, id)).get()?.n ?? 0,
    decisions,
  };
}

// ---------------------------------------------------------------- deciding

const STATUS_OF: Record<FlagAction, IntegrityFlag["status"]> = { clear: "cleared", hold: "held", void: "voided" };

export type Decided = { flag: FlagDetail; changed: boolean; released: number; voided: number; notices: number };

/** The entries a flag holds (all of them, for a decision). */
const entriesOf = (exec: Executor, flagId: number) =>
  exec
    .select({ id: E.preregistration_id })
    .from(E)
    .where(eq(E.flag_id, flagId))
    .all()
    .map((r) => r.id);

/**
 * A cleared flag's prizes go on: each entry no other flag holds and not voided is released, and a drawn
 * registration of it whose prize SMS the draw held back (send_sms, no notice ever queued) gets it now.
 */
function release(exec: Executor, ids: number[]): { released: number; notices: number } {
  const stillHeld = heldAmong(exec, ids);
  const voided = voidedAmong(exec, ids);
  const free = ids.filter((id) => !stillHeld.has(id) && !voided.has(id));
  let notices = 0;
  for (let at = 0; at < free.length; at += 500) {
    const regs = exec
      .select({ id: R.id, slug: R.slug, phone: R.phone, send_sms: R.send_sms, status: R.status })
      .from(R)
      .where(and(inArray(R.preregistration_id, free.slice(at, at + 500)), isNull(R.deleted_at), eq(R.status, "drawn")))
      .all();
    for (const reg of regs) {
      if (!reg.send_sms) continue;
      const told = exec
        .select({ id: S.id })
        .from(S)
        .where(and(eq(S.purpose, "notify"), eq(S.subject_id, reg.id)))
        .get();
      if (told) continue;
      const row = findRegistration({ branchId: null }, reg.slug);
      if (!row) continue;
      queueMessage(exec, { to: reg.phone, text: prizeSmsText(row), purpose: "notify", subjectId: reg.id });
      notices++;
    }
  }
  return { released: free.length, notices };
}

/** A void: each entry of the flag not voided yet gets its prize_voids row (the draw's record is not touched). */
function voidPrizes(exec: Executor, actor: ScopedActor, flagId: number, ids: number[], reason: string): number {
  const already = voidedAmong(exec, ids);
  let n = 0;
  for (const id of ids) {
    if (already.has(id)) continue;
    const reg = exec.select({ id: R.id }).from(R).where(eq(R.preregistration_id, id)).get();
    exec
      .insert(V)
      .values({
        preregistration_id: id,
        registration_id: reg?.id ?? null,
        flag_id: flagId,
        reason,
        voided_by: actor.id,
        voided_at: nowIso(),
      })
      .run();
    n++;
  }
  return n;
}

/**
 * Head office's decision on a flag, with its note, in one transaction with its audit row. The same
 * decision again (a double tap) changes nothing; a voided flag's decision stands (409).
 */
export function decideFlag(actor: ScopedActor, id: number, decision: FlagDecision): Result<Decided> {
  if (!isHeadOffice(actor.scope)) return fail.forbidden(M.notHeadOffice);
  let outcome = { changed: false, released: 0, voided: 0, notices: 0 };
  const done = transact((tx) => {
    const flag = tx.select().from(F).where(eq(F.id, id)).get();
    if (!flag) throw new FailureError(fail.notFound(M.notFound));
    const status = STATUS_OF[decision.action];
    if (flag.status === status) return { ok: true as const };
    if (flag.status === "voided") throw new FailureError(fail.conflict(M.voided));
    const at = nowIso();
    tx.update(F).set({ status, note: decision.note, decided_at: at, decided_by: actor.id }).where(eq(F.id, id)).run();
    const ids = entriesOf(tx, id);
    const voided = decision.action === "void" ? voidPrizes(tx, actor, id, ids, decision.note) : 0;
    const freed = decision.action === "clear" ? release(tx, ids) : { released: 0, notices: 0 };
    outcome = { changed: true, voided, ...freed };
    audit(tx, actor, {
      action: `integrity.${decision.action}`,
      entityType: "integrity_flag",
      entityId: id,
      changes: {
        status: { before: flag.status, after: status },
        note: { before: null, after: decision.note },
        ...(voided ? { voided: { before: null, after: voided } } : {}),
        ...(freed.released ? { released: { before: null, after: freed.released } } : {}),
      },
    });
    return { ok: true as const };
  });
  if (!done.ok) return done;
  if (outcome.notices) wakeSmsWorker();
  return { ok: true, flag: getFlag(actor.scope, id)!, ...outcome };
}

/** The statuses that still hold prizes, for the desk's wording. */
export const isHolding = (status: IntegrityFlag["status"]) => (HOLDING as readonly string[]).includes(status);
