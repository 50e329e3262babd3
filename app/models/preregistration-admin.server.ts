/**
 * The back office's view of pre-registrations: the paged list with its filters
 * and search, the download rows, the detail with the code shown only to staff
 * allowed to see codes, "found at the counter", edit and delete. Creating,
 * verifying and drawing go through app/models/preregistration.server.ts; the one
 * reach rule (`preregistrationScope`), used by every query here, is app/models/preregistration-reach.server.ts's.
 *
 * Branch scope (docs/decisions/0005-counter-journey.md): head office reaches
 * every pre-registration; a branch user those made at its branch and the
 * public ones that named it as nearest showroom or that its staff found at
 * the counter by the customer's full phone number (a recorded grant). A
 * pre-registration made at another branch is never reachable.
 */
import { and, desc, eq, gte, inArray, isNull, lt, ne, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { normaliseReference } from "@db/reference";
import { db, schema, type Executor, type Tx } from "@db/index";
import { newestFirstPages } from "@db/page-reader";
import type { Preregistration } from "@db/schema";
import { audit, diff } from "~/models/audit.server";
import { fail, FailureError, type Failure, type FieldErrors, type Result } from "~/utils/failure";
import { fileUrl } from "~/models/file.server";
import { latestCode } from "~/models/otp.server";
import { CAMPAIGN, referenceErrors, storeScreenshot, type Screenshot } from "~/models/preregistration.server";
import {
  branchReachCount,
  branchReachIds,
  grantCounterAccess,
  preregistrationOwnerScope,
  preregistrationScope,
} from "~/models/preregistration-reach.server";
import type { PreregistrationStatus } from "~/utils/preregistration-status";
import { firstThrill, totalPrize } from "~/utils/prize-constants";
import { countUpTo, liveCount } from "~/models/row-count.server";
import { transact } from "~/models/transaction.server";
import { ftsCondition, ftsQuery, newestMatches, newestMatchesAmong } from "~/models/fts-search.server";
import { PREREGISTRATION_MESSAGES, type PreregistrationChanges } from "~/schemas/preregistration";
import { cappedCount, runTable, type TableParams, type TableResult } from "~/utils/datatable.server";
import { EXPORT_PAGE_ROWS } from "~/utils/spreadsheet.server";
import { normalizePhone } from "~/utils/phone";
import { kathmanduBounds, nowIso } from "~/utils/time";
import type { Scope, ScopedActor } from "./scope.server";
import { isHeadOffice } from "./scope.server";

const { preregistrations: P, registrations: R, branches, bikeModels } = schema;
const nearest = alias(branches, "nearest_branch");

const ENTITY = "preregistration";

// ---------------------------------------------------------------- scope

/** Whether staff of this scope may see a proof screenshot: it belongs to a pre-registration they reach. */
export function canOpenScreenshot(scope: Scope, fileId: number): boolean {
  if (isHeadOffice(scope)) return true;
  return !!db
    .select({ id: P.id })
    .from(P)
    .where(and(eq(P.screenshot_id, fileId), preregistrationScope(scope)))
    .get();
}

/**
 * "Found at the counter": a branch user searching the list for a customer's full phone number is
 * serving that customer, so a public pre-registration with that phone is granted to the branch
 * (`grantCounterAccess`: recorded, audited and limited per user and hour); the list, its detail page
 * and the API then reach it by the usual rule. Only the phone opens an entry: nothing a page or an
 * answer publishes does (the reference on /fair-draws finds only what the branch reaches already).
 * Returns the refusal when the user's hourly limit of grants is spent, else null.
 */
export function findAtCounter(actor: ScopedActor, term: string | null | undefined): Failure | null {
  if (isHeadOffice(actor.scope)) return null;
  const phone = normalizePhone((term ?? "").trim());
  if (!phone) return null;
  const entry = db
    .select({ id: P.id })
    .from(P)
    .where(and(eq(P.campaign, CAMPAIGN), eq(P.phone, phone), isNull(P.deleted_at), isNull(P.branch_id)))
    .get();
  if (!entry) return null;
  const outcome = transact((tx) => grantCounterAccess(tx, actor, entry.id));
  return "failure" in outcome ? outcome.failure : null;
}

// ---------------------------------------------------------------- search

/**
 * Search over name, phone, citizenship number and the visitor's reference (db/reference.ts, typed
 * with or without its dashes, in any case) through the full-text and unique indexes.
 */
export function preregistrationSearch(term: string): SQL | undefined {
  const t = term.trim();
  if (!t) return undefined;
  // (campaign, phone) is the unique index: a full phone number is one index lookup.
  const phone = normalizePhone(t);
  if (phone) return and(eq(P.campaign, CAMPAIGN), eq(P.phone, phone));
  // A term without a word of 3 characters is refused at the field (app/schemas/primitives.ts, listSearch):
  // here it matches nothing rather than reading every row.
  const q = ftsQuery(t);
  const text = q ? ftsCondition("preregistrations", P.id, q) : sql`0`;
  // Twelve digits may be a citizenship number too: both are looked for.
  const ref = normaliseReference(t);
  return ref ? or(eq(P.ref, ref), text) : text;
}

// ---------------------------------------------------------------- filters

export type PreregistrationFilters = {
  bike_model?: number | null;
  branch?: number | null;
  /** Kathmandu date or date-time (checked by the filter schema). */
  from?: string | null;
  to?: string | null;
  /** Second-thrill amount. */
  prize?: number | null;
  status?: PreregistrationStatus | null;
  /** Phone (or name, citizenship number) search. */
  phone?: string | null;
};

function filterConditions(f: PreregistrationFilters, scope: Scope): (SQL | undefined)[] {
  const bounds = kathmanduBounds(f.from, f.to);
  return [
    f.bike_model ? eq(P.bike_model_id, f.bike_model) : undefined,
    f.branch && isHeadOffice(scope)
      ? or(eq(P.branch_id, f.branch), and(isNull(P.branch_id), eq(P.nearest_branch_id, f.branch)))
      : undefined,
    bounds.from ? gte(P.created_at, bounds.from) : undefined,
    bounds.to ? lt(P.created_at, bounds.to) : undefined,
    f.prize !== null && f.prize !== undefined ? eq(P.prize, f.prize) : undefined,
    f.status ? eq(P.status, f.status) : undefined,
  ];
}

// ---------------------------------------------------------------- list

const selection = {
  id: P.id,
  slug: P.slug,
  ref: P.ref,
  name: P.name,
  address: P.address,
  email: P.email,
  phone: P.phone,
  citizenship_no: P.citizenship_no,
  shared: P.shared,
  screenshot_id: P.screenshot_id,
  bike_model_id: P.bike_model_id,
  source: P.source,
  note: P.note,
  send_sms: P.send_sms,
  is_verified: P.is_verified,
  verified_at: P.verified_at,
  purchased: P.purchased,
  prize: P.prize,
  status: P.status,
  branch_id: P.branch_id,
  nearest_branch_id: P.nearest_branch_id,
  created_at: P.created_at,
  updated_at: P.updated_at,
  deleted_at: P.deleted_at,
  bike_model_title: bikeModels.title,
  branch_title: branches.title,
  branch_city: branches.city,
  nearest_title: nearest.title,
  nearest_city: nearest.city,
  registration_slug: R.slug,
};

function joined() {
  return db
    .select(selection)
    .from(P)
    .leftJoin(bikeModels, eq(bikeModels.id, P.bike_model_id))
    .leftJoin(branches, eq(branches.id, P.branch_id))
    .leftJoin(nearest, eq(nearest.id, P.nearest_branch_id))
    .leftJoin(R, eq(R.preregistration_id, P.id));
}

type Flat = ReturnType<ReturnType<typeof joined>["all"]>[number];

function shape(r: Flat) {
  const { bike_model_title, branch_title, branch_city, nearest_title, nearest_city, registration_slug, ...rest } = r;
  return {
    ...rest,
    verified: rest.is_verified,
    screenshot_url: fileUrl(rest.screenshot_id),
    bike_model: rest.bike_model_id ? { title: bike_model_title ?? "" } : null,
    branch: rest.branch_id ? { title: branch_title ?? "", city: branch_city ?? "" } : null,
    nearest_branch: rest.nearest_branch_id ? { title: nearest_title ?? "", city: nearest_city ?? "" } : null,
    /** The customer's city: the branch's, else the nearest showroom's. */
    city: branch_city ?? nearest_city ?? "",
    registration: registration_slug ? { slug: registration_slug } : null,
    first_prize: firstThrill(rest),
    total_prize: totalPrize(rest),
  };
}

export type PreregistrationRow = ReturnType<typeof shape>;

/**
 * A search with no other filter, newest first (the list's first look), which the full-text index
 * answers with the ids a branch reaches: its full-text query, or null when the general way must.
 */
function indexOnlySearch(params: TableParams, filters: PreregistrationFilters): string | null {
  const { phone, ...others } = filters;
  const term = phone?.trim();
  if (!term || normalizePhone(term) || normaliseReference(term)) return null;
  if (Object.values(others).some((v) => v !== null && v !== undefined)) return null;
  if (params.order.some((o) => o.column !== "id" || o.dir !== "desc")) return null;
  return ftsQuery(term);
}

/** The list's total: head office's is every live row, kept by triggers; a branch's is counted from an index. */
const listTotal = (scope: Scope) =>
  isHeadOffice(scope) ? liveCount("preregistrations") : branchReachCount(scope.branchId);

/** The list's first look at a search, answered by the full-text index (app/models/fts-search.server.ts). */
function searchByIndex(scope: Scope, q: string, params: TableParams): TableResult<PreregistrationRow> {
  const { ids, count } = isHeadOffice(scope)
    ? newestMatches("preregistrations", q, params)
    : newestMatchesAmong("preregistrations", q, branchReachIds(scope.branchId), params);
  const data = ids.length ? joined().where(inArray(P.id, ids)).orderBy(desc(P.id)).all().map(shape) : [];
  return {
    draw: params.draw,
    data,
    recordsTotal: listTotal(scope),
    ...cappedCount(count),
    input: params.input,
  };
}

export function listPreregistrations(
  scope: Scope,
  params: TableParams,
  filters: PreregistrationFilters,
): TableResult<PreregistrationRow> {
  const q = indexOnlySearch(params, filters);
  if (q) return searchByIndex(scope, q, params);
  return runTable(
    { ...params, search: "" },
    {
      orderable: { id: P.id, created_at: P.created_at, name: P.name, prize: P.prize, phone: P.phone },
      defaultOrder: { column: "id", dir: "desc" },
      base: [isNull(P.deleted_at), preregistrationScope(scope)],
      filters: [...filterConditions(filters, scope), filters.phone ? preregistrationSearch(filters.phone) : undefined],
      count: (where, limit) => countUpTo(P, where, limit),
      capped: true,
      total: () => listTotal(scope),
      rows: (where, orderBy, limit, offset) =>
        joined()
          .where(where)
          .orderBy(...orderBy, desc(P.id))
          .limit(limit)
          .offset(offset)
          .all()
          .map(shape),
    },
  );
}

/** Every row of the list's filters for the download, newest first, in pages read off the event loop. */
export async function* exportPreregistrations(
  scope: Scope,
  filters: PreregistrationFilters,
): AsyncGenerator<PreregistrationRow[]> {
  const where = and(
    isNull(P.deleted_at),
    preregistrationScope(scope),
    ...filterConditions(filters, scope),
    filters.phone ? preregistrationSearch(filters.phone) : undefined,
  );
  const pages = newestFirstPages<Flat>(
    selection,
    (before) =>
      joined()
        .where(and(where, lt(P.id, before)))
        .orderBy(desc(P.id))
        .limit(EXPORT_PAGE_ROWS),
    EXPORT_PAGE_ROWS,
  );
  for await (const page of pages) yield page.map(shape);
}

// ---------------------------------------------------------------- one record

export type PreregistrationDetail = PreregistrationRow & {
  /** The latest one-time code, only for staff allowed to see codes. */
  code: string | null;
};

/** One pre-registration the scope reaches, by its slug (never a numeric id), or null. */
export function findPreregistration(
  scope: Scope,
  slug: string,
  { withDeleted = false } = {},
): PreregistrationRow | null {
  if (!slug) return null;
  const row = joined()
    .where(and(eq(P.slug, slug), withDeleted ? undefined : isNull(P.deleted_at), preregistrationScope(scope)))
    .get();
  return row ? shape(row) : null;
}

/** The stored row of a live pre-registration the scope reaches (an update's starting point), or null. */
export function storedPreregistration(scope: Scope, slug: string): Preregistration | null {
  if (!slug) return null;
  return (
    db
      .select()
      .from(P)
      .where(and(eq(P.slug, slug), isNull(P.deleted_at), preregistrationScope(scope)))
      .get() ?? null
  );
}

/** The detail screen and GET /api/v1/preregistration/{slug}: the code only when `showCode`. */
export function getPreregistrationDetail(
  scope: Scope,
  slug: string,
  { showCode = false } = {},
): PreregistrationDetail | null {
  const row = findPreregistration(scope, slug);
  if (!row) return null;
  return { ...row, code: showCode ? (latestCode("preregistration", row.id)?.code ?? null) : null };
}

/**
 * Which actions the detail screen offers in this state (spec 000 §4); `rules` is false for an entry
 * reached through a counter grant alone (no edit, no delete).
 */
export function preregistrationActions(
  row: Pick<PreregistrationRow, "is_verified" | "purchased" | "registration">,
  rules = true,
) {
  const purchased = row.purchased || row.registration !== null;
  return {
    verify: !row.is_verified,
    register: row.is_verified && !purchased,
    viewRegistration: purchased && row.registration !== null,
    edit: !purchased && rules,
    delete: !purchased && !row.is_verified && rules,
    draw: row.is_verified,
  };
}

// ---------------------------------------------------------------- changes

export const PREREGISTRATION_ADMIN_MESSAGES = {
  notFound: "Pre-registration not found.",
  purchasedNoDelete: "This pre-registration has a registration and cannot be deleted.",
  verifiedNoDelete: "This pre-registration is verified and its prize is drawn, so it cannot be deleted.",
  purchasedNoEdit: "This pre-registration has a registration and can no longer be edited.",
  phoneLocked: "The phone number of a verified pre-registration cannot be changed.",
  phoneTaken: PREREGISTRATION_MESSAGES.phoneTaken,
  deleted: "Pre-registration deleted.",
  updated: "Pre-registration updated.",
  grantReadsOnly:
    "Your branch found this pre-registration at its counter: it may verify it and register the purchase, but only its own branch or head office may change or delete it.",
} as const;

const A = PREREGISTRATION_ADMIN_MESSAGES;

/** The stored row of a pre-registration the actor reaches, read inside a transaction; not found otherwise. */
function reachable(tx: Tx, scope: Scope, slug: string) {
  const row = slug
    ? tx
        .select()
        .from(P)
        .where(and(eq(P.slug, slug), isNull(P.deleted_at), preregistrationScope(scope)))
        .get()
    : undefined;
  if (!row) throw new FailureError(fail.notFound(A.notFound));
  return row;
}

/**
 * The stored row of a pre-registration the actor may rule (change or delete): reached, and its own
 * branch's or head office's. Reached through a counter grant only: forbidden (decision 5).
 */
function ruled(tx: Tx, scope: Scope, slug: string) {
  const row = reachable(tx, scope, slug);
  if (!ownsEntry(tx, scope, row.id)) throw new FailureError(fail.forbidden(A.grantReadsOnly));
  return row;
}

function ownsEntry(exec: Executor, scope: Scope, id: number): boolean {
  return !!exec
    .select({ id: P.id })
    .from(P)
    .where(and(eq(P.id, id), preregistrationOwnerScope(scope)))
    .get();
}

/** Whether the scope may change or delete a pre-registration it reaches (not through a counter grant alone). */
export const mayRulePreregistration = (scope: Scope, id: number) => ownsEntry(db, scope, id);

/** Soft delete of a pre-registration the actor rules; a purchased one stays (conflict). Audited. */
export function deletePreregistration(actor: ScopedActor, slug: string): Result {
  return transact((tx) => {
    const row = ruled(tx, actor.scope, slug);
    const reg = tx.select({ id: R.id }).from(R).where(eq(R.preregistration_id, row.id)).get();
    if (row.purchased || reg) throw new FailureError(fail.conflict(A.purchasedNoDelete));
    // Its prize is drawn for this phone: deleting it would free the phone for a second draw.
    if (row.is_verified) throw new FailureError(fail.conflict(A.verifiedNoDelete));
    const at = nowIso();
    tx.update(P).set({ deleted_at: at, updated_at: at }).where(eq(P.id, row.id)).run();
    audit(tx, actor, {
      action: "preregistration.delete",
      entityType: ENTITY,
      entityId: row.slug,
      changes: { deleted_at: { before: null, after: at } },
    });
    return { ok: true as const };
  });
}

/**
 * Edits a pre-registration the actor reaches, for the edit page and the API
 * alike. Fields left undefined keep their values, null clears an optional one.
 * The phone of a verified one is read-only; a changed phone must be free; a
 * purchased one cannot change. Unshared, the proof screenshot goes; shared,
 * an uploaded file replaces it. Only head office moves a record to another
 * branch (branch_id). The same reference check as at creation. Audited.
 */
export async function updatePreregistration(
  actor: ScopedActor,
  slug: string,
  changes: PreregistrationChanges,
  screenshot: Screenshot = {},
): Promise<Result<{ row: PreregistrationRow }>> {
  // Before storing a file: the record must be there and still editable.
  const current = findPreregistration(actor.scope, slug);
  if (!current) return fail.notFound(A.notFound);
  if (current.purchased) return fail.conflict(A.purchasedNoEdit);
  const shared = changes.shared ?? current.shared;
  let screenshotId: number | null | undefined;
  if (!shared) screenshotId = null;
  else if (screenshot.file instanceof File && screenshot.file.size > 0) {
    const stored = await storeScreenshot(screenshot.file, actor.id);
    if (!stored.ok) return stored;
    screenshotId = stored.id;
  }

  const outcome = transact((tx) => {
    const row = ruled(tx, actor.scope, slug);
    if (row.purchased) throw new FailureError(fail.conflict(A.purchasedNoEdit));
    const errors: FieldErrors = {};
    let phone = row.phone;
    const given = changes.phone ? (normalizePhone(changes.phone) ?? changes.phone) : null;
    if (given && given !== row.phone) {
      if (row.is_verified) errors.phone = [A.phoneLocked];
      else {
        const taken = tx
          .select({ id: P.id })
          .from(P)
          .where(and(eq(P.campaign, row.campaign), eq(P.phone, given), ne(P.id, row.id)))
          .get();
        if (taken) errors.phone = [A.phoneTaken];
        else phone = given;
      }
    }
    const branchId = isHeadOffice(actor.scope) && changes.branch_id ? changes.branch_id : row.branch_id;
    const refs = referenceErrors(
      tx,
      {
        bike_model_id: changes.bike_model_id,
        nearest_branch_id: changes.nearest_branch_id,
        branch_id: branchId !== row.branch_id ? branchId : null,
      },
      // What the entry already names stays allowed, though retired or closed since.
      { bike_model_id: row.bike_model_id, nearest_branch_id: row.nearest_branch_id },
    );
    Object.assign(errors, refs);
    if (Object.keys(errors).length) throw new FailureError(fail.invalid(errors));
    const keep = <T>(value: T | undefined, stored: T) => (value !== undefined ? value : stored);
    const after = tx
      .update(P)
      .set({
        name: keep(changes.name, row.name),
        address: keep(changes.address, row.address),
        email: keep(changes.email, row.email),
        phone,
        citizenship_no: keep(changes.citizenship_no, row.citizenship_no),
        shared,
        screenshot_id: keep(screenshotId, row.screenshot_id),
        bike_model_id: keep(changes.bike_model_id, row.bike_model_id),
        source: keep(changes.source, row.source),
        note: keep(changes.note, row.note),
        send_sms: keep(changes.send_sms, row.send_sms),
        nearest_branch_id: keep(changes.nearest_branch_id, row.nearest_branch_id),
        branch_id: branchId,
        updated_at: nowIso(),
      })
      .where(eq(P.id, row.id))
      .returning()
      .get();
    audit(tx, actor, {
      action: "preregistration.update",
      entityType: ENTITY,
      entityId: row.slug,
      changes: diff(row, after),
    });
    return { ok: true as const };
  });
  if (!outcome.ok) return outcome;
  return { ok: true, row: findPreregistration(actor.scope, slug)! };
}
