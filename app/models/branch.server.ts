/**
 * Branches (dealers, showrooms).
 *
 * Lookups for the public site and the forms of every area: the ordered branch
 * list, the Nearby Showrooms filter (Zone = state, Location = district) and the
 * plain options list. Only open branches show there: a closed (or deleted)
 * branch leaves them on the next request, while the records that name it keep
 * its title (their joins read the row whatever its state).
 *
 * The back office's branch area (spec 001 §2.4): the paged list with Total
 * Sales, the Branches.xls export, the detail, and the writes (create, update,
 * close, reopen, delete). Every query takes the caller's scope (a branch user
 * reaches its own branch only); every write takes the actor, returns a Result
 * and writes its audit row in its own transaction. A branch that any record
 * names is never deleted: it is closed instead (docs/decisions/0012).
 */
import { and, asc, count, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import { cachedPublic } from "./public-cache.server";
import { db, schema, type Tx } from "@db/index";
import type { Branch } from "@db/schema";
import { BRANCH_MESSAGES, splitList, type BranchInput } from "~/schemas/branch";
import { provinceOf } from "~/schemas/places";
import { likeContains, runTable, type TableParams, type TableResult } from "~/utils/datatable.server";
import { nowIso } from "~/utils/time";
import { randomSlug } from "~/utils/crypto.server";
import { audit, diff } from "./audit.server";
import { fail, FailureError, type Result } from "~/utils/failure";
import { branchCondition, type Scope, type ScopedActor, isHeadOffice } from "./scope.server";
import { transact } from "./transaction.server";

const { branches } = schema;

/** Open: not deleted and not closed. The one condition of every public list and new-record select. */
const isOpen = and(isNull(branches.deleted_at), isNull(branches.closed_at));

export type PublicBranch = {
  id: number;
  slug: string;
  title: string;
  state: string;
  district: string;
  city: string;
  location: string | null;
  email: string | null;
  phone: string | null;
  mobile: string | null;
};

const publicColumns = {
  id: branches.id,
  slug: branches.slug,
  title: branches.title,
  state: branches.state,
  district: branches.district,
  city: branches.city,
  location: branches.location,
  email: branches.email,
  phone: branches.phone,
  mobile: branches.mobile,
};

/** Every open branch ordered by state, district, city and title (GET /api/v1/branches, the booking form). */
export function listBranches(): PublicBranch[] {
  return cachedPublic("branches", () =>
    db
      .select(publicColumns)
      .from(branches)
      .where(isOpen)
      .orderBy(asc(branches.state), asc(branches.district), asc(branches.city), asc(branches.title), asc(branches.id))
      .all(),
  );
}

/**
 * `{ id, title }` of every open branch by title, for selects on any screen.
 * A list filter over past records may ask for the closed ones too; an edit
 * form may `keep` the record's own branch when it has been closed since.
 */
export function listBranchOptions({
  includeClosed = false,
  keep,
}: { includeClosed?: boolean; keep?: number | null } = {}): { id: number; title: string }[] {
  const options = (where: SQL | undefined) =>
    db
      .select({ id: branches.id, title: branches.title })
      .from(branches)
      .where(where)
      .orderBy(asc(branches.title), asc(branches.id))
      .all();
  // The two lists every screen asks for are the same for everyone: kept until a branch changes.
  if (includeClosed) return cachedPublic("branch-options:with-closed", () => options(isNull(branches.deleted_at)));
  if (!keep) return cachedPublic("branch-options", () => options(isOpen));
  return options(or(isOpen, and(eq(branches.id, keep), isNull(branches.deleted_at))));
}

/**
 * `{ id, title }` of the open branches a scope reaches (head office: every one; a branch: its own),
 * for the selects of the scheme and SMS screens.
 */
export function branchOptionsInScope(scope: Scope): { id: number; title: string }[] {
  return listBranchOptions().filter((b) => isHeadOffice(scope) || b.id === scope.branchId);
}

/** An open branch by id, or null. */
export function findActiveBranch(id: number): PublicBranch | null {
  return (
    db
      .select(publicColumns)
      .from(branches)
      .where(and(eq(branches.id, id), isOpen))
      .get() ?? null
  );
}

/** A phone value split on "/" into separate numbers (spec 000 §2), each with its tel: address. */
export function splitPhones(phone: string | null | undefined): { label: string; href: string }[] {
  return (phone ?? "")
    .split("/")
    .map((p) => p.trim())
    .filter(Boolean)
    .map((label) => ({ label, href: `tel:${label.replace(/[^0-9+]/g, "")}` }));
}

const uniqueSorted = (values: string[]) => [...new Set(values)].sort((a, b) => a.localeCompare(b));

export type ShowroomCard = PublicBranch & { phones: { label: string; href: string }[] };

export type ShowroomFilter = {
  /** Zone options (states). */
  states: string[];
  /** Location options (districts of the chosen zone; every district without one). */
  districts: string[];
  /** The filter actually applied: an unknown zone, or a location outside the zone, is dropped. */
  state: string;
  district: string;
  showrooms: ShowroomCard[];
};

/** Nearby Showrooms: filter by Zone (state), then Location (district). */
export function findShowrooms(filter: { state?: string | null; district?: string | null } = {}): ShowroomFilter {
  const all = listBranches();
  const states = uniqueSorted(all.map((b) => b.state));
  const state = filter.state && states.includes(filter.state) ? filter.state : "";
  const inState = state ? all.filter((b) => b.state === state) : all;
  const districts = uniqueSorted(inState.map((b) => b.district));
  const district = filter.district && districts.includes(filter.district) ? filter.district : "";
  const showrooms = (district ? inState.filter((b) => b.district === district) : inState).map((b) => ({
    ...b,
    phones: splitPhones(b.phone),
  }));
  return { states, districts, state, district, showrooms };
}

// ---------------------------------------------------------------- back office: reading

export const BRANCH_ERRORS = {
  notFound: "Branch not found.",
  headOffice: "Only head office can create, close, reopen or delete branches.",
  alreadyClosed: "This branch is already closed.",
  notClosed: "This branch is open.",
  inUse: (what: string) =>
    `This branch cannot be deleted: it has ${what}. Close it instead: a closed branch leaves the public site and the forms at once, and its records keep its name.`,
} as const;

/**
 * Total Sales: live (not deleted) registrations of the branch. The outer column is qualified by hand:
 * drizzle writes a selected table's column without its table name, which the subquery would read as its own.
 */
const registrationsCount = sql<number>`(select count(*) from registrations r where r.branch_id = "branches"."id" and r.deleted_at is null)`;

/** A branch row of the back office: every field of spec 001 §3, with Total Sales and whether it is closed. */
export type BranchRow = Omit<Branch, "deleted_at"> & { registrations_count: number };

const rowColumns = {
  ...publicColumns,
  one_lakh_allocation_count: branches.one_lakh_allocation_count,
  ten_lakhs_allocation_count: branches.ten_lakhs_allocation_count,
  closed_at: branches.closed_at,
  created_at: branches.created_at,
  updated_at: branches.updated_at,
  registrations_count: registrationsCount,
};

/** The branches a scope reaches (not deleted): head office every one, a branch user its own. */
const reach = (scope: Scope) => and(isNull(branches.deleted_at), branchCondition(branches.id, scope));

/** The list's search: any part of the name, place, location, e-mail or numbers. */
function branchSearch(term: string): SQL | undefined {
  return or(
    likeContains(branches.title, term),
    likeContains(branches.state, term),
    likeContains(branches.district, term),
    likeContains(branches.city, term),
    likeContains(branches.location, term),
    likeContains(branches.email, term),
    likeContains(branches.phone, term),
    likeContains(branches.mobile, term),
  );
}

/** The paged list of /admin/branch and GET /api/v1/branch (by title; Total Sales per branch). */
export function listBranchesTable(scope: Scope, params: TableParams): TableResult<BranchRow> {
  return runTable<BranchRow>(params, {
    orderable: {
      id: branches.id,
      title: branches.title,
      state: branches.state,
      district: branches.district,
      city: branches.city,
      location: branches.location,
      registrations_count: registrationsCount,
      created_at: branches.created_at,
    },
    defaultOrder: { column: "title", dir: "asc" },
    base: [reach(scope)],
    search: branchSearch,
    count: (where) => db.select({ n: count() }).from(branches).where(where).get()?.n ?? 0,
    rows: (where, orderBy, limit, offset) =>
      db
        .select(rowColumns)
        .from(branches)
        .where(where)
        .orderBy(...orderBy, asc(branches.id))
        .limit(limit)
        .offset(offset)
        .all(),
  });
}

/** Every branch of the list's search, by title, read in pages (Branches.xls). */
export function* exportBranches(scope: Scope, { search }: { search?: string | null } = {}): Generator<BranchRow> {
  const term = search?.trim().slice(0, 100);
  const where = and(reach(scope), term ? branchSearch(term) : undefined);
  for (let offset = 0; ; offset += 500) {
    const page = db
      .select(rowColumns)
      .from(branches)
      .where(where)
      .orderBy(asc(branches.title), asc(branches.id))
      .limit(500)
      .offset(offset)
      .all();
    yield* page;
    if (page.length < 500) return;
  }
}

/** Columns of Branches.xls: the list's, with the rest of the record. */
export const BRANCH_COLUMNS: { header: string; value: (r: BranchRow) => string | number | null }[] = [
  { header: "Title", value: (r) => r.title },
  { header: "State", value: (r) => r.state },
  { header: "District", value: (r) => r.district },
  { header: "City", value: (r) => r.city },
  { header: "Location", value: (r) => r.location },
  { header: "Phone", value: (r) => r.phone },
  { header: "Mobile", value: (r) => r.mobile },
  { header: "Email", value: (r) => r.email },
  { header: "Total Sales", value: (r) => r.registrations_count },
  { header: "One Lakh Allocation", value: (r) => r.one_lakh_allocation_count },
  { header: "Ten Lakhs Allocation", value: (r) => r.ten_lakhs_allocation_count },
  { header: "Status", value: (r) => (r.closed_at ? "Closed" : "Open") },
];

/** What names a branch: while any of these is above zero the branch cannot be deleted. */
export type BranchUsage = {
  users: number;
  preregistrations: number;
  registrations: number;
  test_rides: number;
  allocations: number;
};

const USAGE_WORDS: Record<keyof BranchUsage, [string, string]> = {
  users: ["user", "users"],
  preregistrations: ["pre-registration", "pre-registrations"],
  registrations: ["registration", "registrations"],
  test_rides: ["test ride", "test rides"],
  allocations: ["scheme", "schemes"],
};

/** "3 registrations, 1 user and 2 schemes". */
export function describeUsage(usage: Partial<Record<string, number>>, words: Record<string, [string, string]>): string {
  const parts = Object.entries(words)
    .filter(([k]) => (usage[k] ?? 0) > 0)
    .map(([k, [one, many]]) => `${usage[k]} ${usage[k] === 1 ? one : many}`);
  return parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

/** Every record naming the branch, deleted ones included (they keep its name too). */
function branchUsage(exec: Tx | typeof db, id: number): BranchUsage {
  const n = (q: SQL) => exec.get<{ n: number }>(q)?.n ?? 0;
  return {
    users: n(sql`select count(*) as n from users where branch_id = ${id}`),
    preregistrations: n(
      sql`select count(*) as n from preregistrations where branch_id = ${id} or nearest_branch_id = ${id}`,
    ),
    registrations: n(sql`select count(*) as n from registrations where branch_id = ${id}`),
    test_rides: n(sql`select count(*) as n from test_rides where branch_id = ${id}`),
    allocations: n(
      sql`select (select count(*) from allocations where branch_id = ${id}) + (select count(*) from draws where branch_id = ${id}) as n`,
    ),
  };
}

export type BranchDetail = BranchRow & {
  phones: { label: string; href: string }[];
  mobiles: { label: string; href: string }[];
  usage: BranchUsage;
  /** Whether Delete can succeed (nothing names the branch). */
  deletable: boolean;
};

/** One branch the scope reaches, by slug, with its numbers split on "/" and what names it. */
export function getBranch(scope: Scope, slug: string): BranchDetail | null {
  if (!slug || slug.length > 64) return null;
  const row = db
    .select(rowColumns)
    .from(branches)
    .where(and(eq(branches.slug, slug), reach(scope)))
    .get();
  if (!row) return null;
  const usage = branchUsage(db, row.id);
  return {
    ...row,
    phones: splitPhones(row.phone),
    mobiles: splitPhones(row.mobile),
    usage,
    deletable: Object.values(usage).every((v) => v === 0),
  };
}

type PlaceColumn = typeof branches.city;

/** The cities already in use, offered by the form (a datalist) so the public cascade stays clean. */
export function branchCities(): string[] {
  return db
    .selectDistinct({ v: branches.city })
    .from(branches)
    .where(isNull(branches.deleted_at))
    .orderBy(asc(branches.city))
    .all()
    .map((r) => r.v);
}

// ---------------------------------------------------------------- back office: changes

const ENTITY = "branch";

/** The branch, read again inside the transaction, within the actor's reach; not found otherwise. */
function reachable(tx: Tx, scope: Scope, slug: string): Branch {
  const row = tx
    .select()
    .from(branches)
    .where(and(eq(branches.slug, slug), reach(scope)))
    .get();
  if (!row) throw new FailureError(fail.notFound(BRANCH_ERRORS.notFound));
  return row;
}

function requireHeadOffice(actor: ScopedActor) {
  if (!isHeadOffice(actor.scope)) throw new FailureError(fail.forbidden(BRANCH_ERRORS.headOffice));
}

/**
 * A city as the branches already spell it: "pokhara " becomes "Pokhara"
 * when a branch is in Pokhara, so the public cascade never offers one place twice.
 */
function canonicalPlace(tx: Tx, column: PlaceColumn, value: string): string {
  const clean = value.replace(/\s+/g, " ").trim();
  const found = tx
    .select({ v: column })
    .from(branches)
    .where(and(isNull(branches.deleted_at), sql`lower(${column}) = lower(${clean})`))
    .orderBy(asc(branches.id))
    .get();
  return found?.v ?? clean;
}

function values(tx: Tx, input: BranchInput) {
  // State and district come from Nepal's list as it spells them (the schema); the district lies in the state.
  if (provinceOf(input.district) !== input.state)
    throw new FailureError(fail.field("district", BRANCH_MESSAGES.districtElsewhere));
  return {
    title: input.title.replace(/\s+/g, " ").trim(),
    state: input.state,
    district: input.district,
    city: canonicalPlace(tx, branches.city, input.city),
    location: input.location ?? null,
    email: input.email ?? null,
    phone: input.phone ? splitList(input.phone).join("/") : null,
    mobile: input.mobile ? splitList(input.mobile).join("/") : null,
    one_lakh_allocation_count: input.one_lakh_allocation_count,
    ten_lakhs_allocation_count: input.ten_lakhs_allocation_count,
  };
}

/** The title is unique among branches (letter case aside), closed ones included. */
function checkTitle(tx: Tx, title: string, exceptId?: number) {
  const taken = tx
    .select({ id: branches.id })
    .from(branches)
    .where(
      and(
        isNull(branches.deleted_at),
        sql`lower(${branches.title}) = lower(${title})`,
        exceptId ? sql`${branches.id} <> ${exceptId}` : undefined,
      ),
    )
    .get();
  if (taken) throw new FailureError(fail.field("title", BRANCH_MESSAGES.titleTaken));
}

/** Creates a branch (head office only); it shows on the public site on the next request. */
export function createBranch(actor: ScopedActor, input: BranchInput): Result<{ branch: Branch }> {
  return transact((tx) => {
    requireHeadOffice(actor);
    const v = values(tx, input);
    checkTitle(tx, v.title);
    const branch = tx
      .insert(branches)
      .values({ ...v, slug: randomSlug() })
      .returning()
      .get();
    audit(tx, actor, { action: "branch.create", entityType: ENTITY, entityId: branch.id, changes: diff(null, branch) });
    return { ok: true as const, branch };
  });
}

/** Updates a branch the actor reaches (a branch user: its own). */
export function updateBranch(actor: ScopedActor, slug: string, input: BranchInput): Result<{ branch: Branch }> {
  return transact((tx) => {
    const before = reachable(tx, actor.scope, slug);
    const v = values(tx, input);
    checkTitle(tx, v.title, before.id);
    const branch = tx
      .update(branches)
      .set({ ...v, updated_at: nowIso() })
      .where(eq(branches.id, before.id))
      .returning()
      .get();
    audit(tx, actor, {
      action: "branch.update",
      entityType: ENTITY,
      entityId: branch.id,
      changes: diff(before, branch),
    });
    return { ok: true as const, branch };
  });
}

/**
 * Deletes a branch that nothing names (head office only). A branch with users,
 * pre-registrations, registrations, test rides or schemes is refused with a
 * conflict that says what names it and to close it instead.
 */
export function deleteBranch(actor: ScopedActor, slug: string): Result<{ branch: Branch }> {
  return transact((tx) => {
    requireHeadOffice(actor);
    const row = reachable(tx, actor.scope, slug);
    const usage = branchUsage(tx, row.id);
    if (Object.values(usage).some((v) => v > 0))
      throw new FailureError(fail.conflict(BRANCH_ERRORS.inUse(describeUsage(usage, USAGE_WORDS))));
    tx.delete(branches).where(eq(branches.id, row.id)).run();
    audit(tx, actor, { action: "branch.delete", entityType: ENTITY, entityId: row.id, changes: diff(row, null) });
    return { ok: true as const, branch: row };
  });
}

/** Closes a branch (head office only): out of the public site and every new-record select; its records stay. */
export function closeBranch(actor: ScopedActor, slug: string): Result<{ branch: Branch }> {
  return setClosed(actor, slug, true);
}

/** Opens a closed branch again. */
export function reopenBranch(actor: ScopedActor, slug: string): Result<{ branch: Branch }> {
  return setClosed(actor, slug, false);
}

function setClosed(actor: ScopedActor, slug: string, closed: boolean): Result<{ branch: Branch }> {
  return transact((tx) => {
    requireHeadOffice(actor);
    const before = reachable(tx, actor.scope, slug);
    if (closed && before.closed_at) throw new FailureError(fail.conflict(BRANCH_ERRORS.alreadyClosed));
    if (!closed && !before.closed_at) throw new FailureError(fail.conflict(BRANCH_ERRORS.notClosed));
    const at = nowIso();
    const branch = tx
      .update(branches)
      .set({ closed_at: closed ? at : null, updated_at: at })
      .where(eq(branches.id, before.id))
      .returning()
      .get();
    audit(tx, actor, {
      action: closed ? "branch.close" : "branch.reopen",
      entityType: ENTITY,
      entityId: branch.id,
      changes: diff(before, branch),
    });
    return { ok: true as const, branch };
  });
}

/** A branch as the API shows it (spec 001 §3), with Total Sales when known. */
export function presentBranch(row: Branch | BranchRow) {
  const { deleted_at: _deleted, ...rest } = row as Branch;
  return { ...rest, closed: rest.closed_at !== null };
}
