/**
 * Reading registrations: one registration, the lists (active, trash, the
 * dashboard's Registered Buyers) with their filters and full-text search, the
 * rows and columns of the download, and the referrer search of the counter
 * form. Every query takes the caller's branch scope inside its WHERE clause;
 * a referrer from another branch is joined only for head office.
 */
import { countUpTo, liveCount } from "~/models/row-count.server";
import { label } from "~/utils/labels";
import { and, desc, eq, getTableColumns, gte, inArray, isNotNull, isNull, lt, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { db, schema } from "@db/index";
import { newestFirstPages } from "@db/page-reader";
import { fileUrl } from "~/models/file.server";
import { latestCode } from "~/models/otp.server";
import { referrerText } from "~/models/labels";
import { FIRST_THRILL, prizeBreakdown } from "~/utils/prize-constants";
import type { RegistrationFilters } from "~/schemas/registration";
import { cappedCount, runTable, type TableParams, type TableResult } from "~/utils/datatable.server";
import { EXPORT_PAGE_ROWS } from "~/utils/spreadsheet.server";
import { maskPhone, normalizePhone } from "~/utils/phone";
import { displayDateTime, displayDay, kathmanduBounds } from "~/utils/time";
import { ftsCondition, ftsQuery, newestMatches } from "./fts-search.server";
import { branchCondition, type Scope, isHeadOffice } from "./scope.server";

export type { RegistrationFilters };

const { registrations: R, preregistrations: P, branches, bikeModels } = schema;
const preBranch = alias(branches, "pre_branch");
const referrer = alias(R, "referrer");

// ---------------------------------------------------------------- search and filters

/**
 * Search over name, phone, citizenship/PAN, bill, engine, chassis and vehicle numbers: a full phone
 * number through the phone index, anything else through the full-text index. Null when the term has
 * nothing the indexes can find (no word of 3 characters): a list's field refuses such a term
 * (app/schemas/primitives.ts, listSearch), since a prefix match of it would read every row.
 */
export function registrationSearch(term: string): SQL | null {
  const phone = normalizePhone(term);
  // As ids from the phone index: beside a branch's condition, SQLite would otherwise read the branch's
  // rows from its index and look each up for its phone.
  if (phone) return inArray(R.id, db.select({ id: R.id }).from(R).where(eq(R.phone, phone)));
  const q = ftsQuery(term);
  return q ? ftsCondition("registrations", R.id, q) : null;
}

/** A search's condition in a list's WHERE clause; a term with nothing to look for matches nothing. */
const searchCondition = (term: string | undefined) => (term ? (registrationSearch(term) ?? sql`0`) : undefined);

/** Total prize (first + second + third) as SQL, for the `prize` filter; the rule itself is prizeBreakdown's. */
const totalPrizeSql = sql`(case when ${P.shared} = 1 and ${P.is_verified} = 1 then ${FIRST_THRILL} else 0 end + coalesce(${P.prize}, 0) + coalesce(${R.coupon_amount}, 0))`;

const given = (v: number | undefined | null): v is number => v !== null && v !== undefined;

function filterConditions(f: RegistrationFilters, scope: Scope): (SQL | undefined)[] {
  const bounds = kathmanduBounds(f.from, f.to);
  return [
    f.payment_mode ? eq(R.payment_mode, f.payment_mode) : undefined,
    f.bike_model ? eq(R.bike_model_id, f.bike_model) : undefined,
    // `branch` only narrows head office's view; a branch user's scope stays its own.
    f.branch && isHeadOffice(scope) ? eq(R.branch_id, f.branch) : undefined,
    bounds.from ? gte(R.created_at, bounds.from) : undefined,
    bounds.to ? lt(R.created_at, bounds.to) : undefined,
    given(f.prize) ? sql`${totalPrizeSql} = ${f.prize}` : undefined,
    given(f.pre_prize) ? eq(P.prize, f.pre_prize) : undefined,
    given(f.post_prize) ? eq(R.coupon_amount, f.post_prize) : undefined,
    f.status ? eq(R.status, f.status) : undefined,
    f.slug ? eq(R.slug, f.slug) : undefined,
  ];
}

const needsPreJoin = (f: RegistrationFilters) => given(f.prize) || given(f.pre_prize);

// ---------------------------------------------------------------- rows

/**
 * A registration's own columns as the list, its API, the detail and
 * Registrations.xls read them: every column of the table but those left out
 * on purpose (the share code is the customer's own link; who created it and
 * the form's token are the server's). registration-fields.test.ts holds this.
 */
const {
  share_code: _shareCode,
  created_by: _createdBy,
  form_token: _formToken,
  ...registrationColumns
} = getTableColumns(R);

const selection = {
  ...registrationColumns,
  bike_model_title: bikeModels.title,
  bike_model_thumbnail_id: bikeModels.thumbnail_id,
  branch_title: branches.title,
  branch_city: branches.city,
  pre_slug: P.slug,
  pre_name: P.name,
  pre_shared: P.shared,
  pre_is_verified: P.is_verified,
  pre_prize: P.prize,
  pre_screenshot_id: P.screenshot_id,
  pre_created_at: P.created_at,
  pre_source: P.source,
  pre_branch_title: preBranch.title,
  referrer_slug: referrer.slug,
  referrer_name: referrer.name,
};

/**
 * Registrations with what the screens show beside them. The referrer (another
 * registration) is joined only when the scope reaches it: a branch never
 * learns another branch's customer's name or slug through a referral.
 */
function joined(scope: Scope) {
  const on = joins(scope);
  return db
    .select(selection)
    .from(R)
    .innerJoin(P, on.pre)
    .leftJoin(bikeModels, on.bikeModel)
    .leftJoin(branches, on.branch)
    .leftJoin(preBranch, on.preBranch)
    .leftJoin(referrer, on.referrer);
}

/** The join conditions of every read of registrations with their relations (the list, the download). */
function joins(scope: Scope) {
  return {
    pre: eq(P.id, R.preregistration_id),
    bikeModel: eq(bikeModels.id, R.bike_model_id),
    branch: eq(branches.id, R.branch_id),
    preBranch: eq(preBranch.id, sql`coalesce(${P.branch_id}, ${P.nearest_branch_id})`),
    referrer: and(eq(referrer.id, R.registration_id), branchCondition(referrer.branch_id, scope)),
  };
}

type Flat = ReturnType<ReturnType<typeof joined>["all"]>[number];

function shape(r: Flat) {
  const {
    bike_model_title,
    bike_model_thumbnail_id,
    branch_title,
    branch_city,
    pre_slug,
    pre_name,
    pre_shared,
    pre_is_verified,
    pre_prize,
    pre_screenshot_id,
    pre_created_at,
    pre_source,
    pre_branch_title,
    referrer_slug,
    referrer_name,
    ...rest
  } = r;
  const prizes = prizeBreakdown({
    shared: pre_shared,
    is_verified: pre_is_verified,
    prize: pre_prize,
    coupon_amount: rest.coupon_amount,
  });
  const thumbnail = fileUrl(bike_model_thumbnail_id);
  return {
    ...rest,
    /** Spec 000 §3 registration.thumbnail: the bought bike model's picture (decision 9). */
    thumbnail,
    bike_model: { title: bike_model_title ?? "", thumbnail_url: thumbnail },
    branch: { title: branch_title ?? "", city: branch_city ?? "" },
    preregistration: {
      slug: pre_slug,
      name: pre_name,
      shared: pre_shared,
      is_verified: pre_is_verified,
      screenshot_url: fileUrl(pre_screenshot_id),
      prize: pre_prize,
      source: pre_source,
      created_at: pre_created_at,
      branch: pre_branch_title ? { title: pre_branch_title } : null,
      coupon: { amount: pre_prize },
    },
    coupon: rest.coupon_amount !== null ? { amount: rest.coupon_amount } : null,
    /** The referring customer when the caller's scope reaches them; null otherwise (see registration_id). */
    referrer: referrer_slug ? { slug: referrer_slug, name: referrer_name ?? "" } : null,
    prizes,
    total_prize: prizes.total,
  };
}

export type RegistrationRow = ReturnType<typeof shape>;
export type RegistrationDetail = RegistrationRow & { code: string | null };

function countRegistrations(where: SQL | undefined, withPre: boolean, limit?: number): number {
  return countUpTo(R, where, limit, withPre ? [[P, eq(P.id, R.preregistration_id)]] : []);
}

/**
 * Head office's active list searched with no other filter, newest first (the list's first look): the
 * full-text query that answers it from the index alone, or null when the general way must.
 */
function indexOnlySearch(
  scope: Scope,
  params: TableParams,
  filters: RegistrationFilters,
  term: string | undefined,
  deleted: boolean,
): string | null {
  if (deleted || !isHeadOffice(scope) || !term || normalizePhone(term)) return null;
  const { search: _search, ...others } = filters;
  if (Object.values(others).some((v) => v !== null && v !== undefined)) return null;
  if (params.order.some((o) => o.column !== "id" || o.dir !== "desc")) return null;
  return ftsQuery(term);
}

function listWith(
  scope: Scope,
  params: TableParams,
  filters: RegistrationFilters,
  deleted: boolean,
): TableResult<RegistrationRow> {
  const term = filters.search ?? params.search;
  const q = indexOnlySearch(scope, params, filters, term, deleted);
  if (q) {
    const { ids, count } = newestMatches("registrations", q, params);
    return {
      draw: params.draw,
      data: ids.length ? joined(scope).where(inArray(R.id, ids)).orderBy(desc(R.id)).all().map(shape) : [],
      recordsTotal: liveCount("registrations"),
      ...cappedCount(count),
      input: params.input,
    };
  }
  // Everything the scope decides is read here, so the table protocol gets conditions and a query, not the scope.
  const base = [deleted ? isNotNull(R.deleted_at) : isNull(R.deleted_at), branchCondition(R.branch_id, scope)];
  const narrowing = [...filterConditions(filters, scope), searchCondition(term)];
  // Head office's total of live registrations is kept by triggers, not counted.
  const total = !deleted && isHeadOffice(scope) ? () => liveCount("registrations") : undefined;
  const rows = joined(scope);
  return runTable(
    { ...params, search: "" },
    {
      orderable: {
        id: R.id,
        created_at: R.created_at,
        name: R.name,
        purchase_date: R.purchase_date,
        coupon_amount: R.coupon_amount,
        bill_no: R.bill_no,
        deleted_at: R.deleted_at,
      },
      defaultOrder: { column: deleted ? "deleted_at" : "id", dir: "desc" },
      base,
      filters: narrowing,
      count: (where, limit) => countRegistrations(where, needsPreJoin(filters), limit),
      capped: true,
      total,
      rows: (where, orderBy, limit, offset) =>
        rows
          .where(where)
          .orderBy(...orderBy, desc(R.id))
          .limit(limit)
          .offset(offset)
          .all()
          .map(shape),
    },
  );
}

/** The registration list (and the dashboard's "Registered Buyers"): active rows in scope. */
export function listRegistrations(scope: Scope, params: TableParams, filters: RegistrationFilters = {}) {
  return listWith(scope, params, filters, false);
}

/** The trash: deleted rows in scope, most recently deleted first. */
export function listDeletedRegistrations(scope: Scope, params: TableParams, filters: RegistrationFilters = {}) {
  return listWith(scope, params, filters, true);
}

function activeMatching(scope: Scope, filters: RegistrationFilters): SQL | undefined {
  return and(
    isNull(R.deleted_at),
    branchCondition(R.branch_id, scope),
    ...filterConditions(filters, scope),
    searchCondition(filters.search),
  );
}

/** Every active row matching the filters, newest first, read in pages (download, print). */
export function* exportRegistrations(
  scope: Scope,
  filters: RegistrationFilters,
  { limit = Number.MAX_SAFE_INTEGER } = {},
): Generator<RegistrationRow> {
  const page = (where: SQL | undefined, n: number) => joined(scope).where(where).orderBy(desc(R.id)).limit(n).all();
  for (const row of newestFirst(activeMatching(scope, filters), page, limit)) yield shape(row);
}

/** Rows of `page(where, n)` newest first, read EXPORT_PAGE_ROWS at a time from the highest id down (at most `limit`). */
function* newestFirst<T extends { id: number }>(
  where: SQL | undefined,
  page: (where: SQL | undefined, n: number) => T[],
  limit = Number.MAX_SAFE_INTEGER,
): Generator<T> {
  const pageSize = Math.min(EXPORT_PAGE_ROWS, limit);
  let left = limit;
  for (let lastId = Number.MAX_SAFE_INTEGER; left > 0;) {
    const rows = page(and(where, lt(R.id, lastId)), Math.min(pageSize, left));
    if (!rows.length) return;
    yield* rows;
    left -= rows.length;
    lastId = rows[rows.length - 1].id;
    if (rows.length < pageSize) return;
  }
}

/**
 * What Registrations.xls reads of a registration, flat: the columns its cells
 * show and nothing else, without the nested objects the screens build. Each
 * field is read in the page reader's thread, sent across and decoded here, so
 * a field the sheet does not show costs a million-row download a million
 * values three times over.
 */
const sheetSelection = {
  id: R.id,
  slug: R.slug,
  bill_no: R.bill_no,
  name: R.name,
  address: R.address,
  phone: R.phone,
  email: R.email,
  citizenship_no: R.citizenship_no,
  pan: R.pan,
  engine_no: R.engine_no,
  chasis_no: R.chasis_no,
  registration_no: R.registration_no,
  payment_mode: R.payment_mode,
  purchase_date: R.purchase_date,
  status: R.status,
  coupon_amount: R.coupon_amount,
  coupon_code: R.coupon_code,
  referred_by: R.referred_by,
  registration_id: R.registration_id,
  note: R.note,
  created_at: R.created_at,
  bike_model_title: bikeModels.title,
  branch_title: branches.title,
  branch_city: branches.city,
  pre_shared: P.shared,
  pre_is_verified: P.is_verified,
  pre_prize: P.prize,
  referrer_slug: referrer.slug,
  referrer_name: referrer.name,
};

function sheetJoined(scope: Scope) {
  const on = joins(scope);
  return db
    .select(sheetSelection)
    .from(R)
    .innerJoin(P, on.pre)
    .leftJoin(bikeModels, on.bikeModel)
    .leftJoin(branches, on.branch)
    .leftJoin(referrer, on.referrer);
}

export type RegistrationSheetRow = ReturnType<ReturnType<typeof sheetJoined>["all"]>[number];

/** The rows of Registrations.xls: the list's filters, newest first, in pages read off the event loop. */
export function registrationSheetPages(
  scope: Scope,
  filters: RegistrationFilters,
): AsyncGenerator<RegistrationSheetRow[]> {
  const where = activeMatching(scope, filters);
  return newestFirstPages<RegistrationSheetRow>(
    sheetSelection,
    (before) =>
      sheetJoined(scope)
        .where(and(where, lt(R.id, before)))
        .orderBy(desc(R.id))
        .limit(EXPORT_PAGE_ROWS),
    EXPORT_PAGE_ROWS,
  );
}

/** The three thrills and their total, as the list's rows carry them. */
const sheetPrizes = (r: RegistrationSheetRow) =>
  prizeBreakdown({
    shared: r.pre_shared,
    is_verified: r.pre_is_verified,
    prize: r.pre_prize,
    coupon_amount: r.coupon_amount,
  });

/** How many active rows match the filters (the print sheet's "of N"). */
export function countMatching(scope: Scope, filters: RegistrationFilters): number {
  return countRegistrations(activeMatching(scope, filters), needsPreJoin(filters));
}

/** The columns of Registrations.xls. */
export const REGISTRATION_COLUMNS = [
  { header: "Slug", value: (r: RegistrationSheetRow) => r.slug },
  { header: "Bill No", value: (r: RegistrationSheetRow) => r.bill_no },
  { header: "Name", value: (r: RegistrationSheetRow) => r.name },
  { header: "Address", value: (r: RegistrationSheetRow) => r.address },
  { header: "Phone", value: (r: RegistrationSheetRow) => r.phone },
  { header: "Email", value: (r: RegistrationSheetRow) => r.email },
  { header: "Citizenship No", value: (r: RegistrationSheetRow) => r.citizenship_no },
  { header: "PAN", value: (r: RegistrationSheetRow) => r.pan },
  { header: "Model", value: (r: RegistrationSheetRow) => r.bike_model_title ?? "" },
  { header: "Engine No", value: (r: RegistrationSheetRow) => r.engine_no },
  { header: "Chassis No", value: (r: RegistrationSheetRow) => r.chasis_no },
  { header: "Registration No", value: (r: RegistrationSheetRow) => r.registration_no },
  { header: "Payment Mode", value: (r: RegistrationSheetRow) => label("payment_mode", r.payment_mode) },
  { header: "Branch", value: (r: RegistrationSheetRow) => r.branch_title ?? "" },
  { header: "City", value: (r: RegistrationSheetRow) => r.branch_city ?? "" },
  { header: "Date of Purchase", value: (r: RegistrationSheetRow) => displayDay(r.purchase_date) },
  { header: "Status", value: (r: RegistrationSheetRow) => label("registration_status", r.status) },
  { header: "First Thrill", value: (r: RegistrationSheetRow) => sheetPrizes(r).first },
  { header: "Second Thrill", value: (r: RegistrationSheetRow) => sheetPrizes(r).second },
  { header: "Third Thrill", value: (r: RegistrationSheetRow) => sheetPrizes(r).third },
  { header: "Total Prize", value: (r: RegistrationSheetRow) => sheetPrizes(r).total },
  { header: "Coupon Code", value: (r: RegistrationSheetRow) => r.coupon_code },
  {
    header: "Referred By",
    value: (r: RegistrationSheetRow) =>
      referrerText({
        referred_by: r.referred_by,
        referrer: r.referrer_slug ? { name: r.referrer_name ?? "" } : null,

        registration_id: r.registration_id,
      }),
  },
  { header: "Note", value: (r: RegistrationSheetRow) => r.note },
  { header: "Registered", value: (r: RegistrationSheetRow) => displayDateTime(r.created_at) },
];

// ---------------------------------------------------------------- one registration

/** One registration in scope by slug (deleted ones too when asked), or null. */
export function findRegistration(scope: Scope, slug: string, { withDeleted = false } = {}): RegistrationRow | null {
  const row = joined(scope)
    .where(and(eq(R.slug, slug), withDeleted ? undefined : isNull(R.deleted_at), branchCondition(R.branch_id, scope)))
    .get();
  return row ? shape(row) : null;
}

/** The detail screen and GET /api/v1/registration/{slug}: deleted rows included; the code only when `showCode`. */
export function getRegistrationDetail(
  scope: Scope,
  slug: string,
  { showCode = false } = {},
): RegistrationDetail | null {
  const row = findRegistration(scope, slug, { withDeleted: true });
  if (!row) return null;
  return { ...row, code: showCode ? (latestCode("registration", row.id)?.code ?? null) : null };
}

// ---------------------------------------------------------------- referrer search

/**
 * A suggestion for the referrer field. `value` and `slug` are given for a
 * customer the caller's scope reaches; a customer of another branch found by
 * their full phone number comes back without name, id or slug (value and slug
 * null): only that the number is a registered customer's, which is all the
 * counter needs to link them (the form sends the phone).
 */
export type RegistrantOption = { value: number | null; label: string; slug: string | null; phone: string };

/**
 * Registered customers for the referrer field: by name, phone or bill within
 * the caller's branch (head office: every branch), and, for a full phone
 * number, a bare "registered customer at another branch" entry.
 */
export function searchRegistrants(scope: Scope, q: string, limit = 10): RegistrantOption[] {
  const term = q.trim();
  const match = registrationSearch(term);
  if (!match) return [];
  const own = db
    .select({ id: R.id, slug: R.slug, name: R.name, phone: R.phone })
    .from(R)
    .where(and(isNull(R.deleted_at), branchCondition(R.branch_id, scope), match))
    .orderBy(desc(R.id))
    .limit(limit)
    .all()
    .map((r) => ({ value: r.id, label: `${r.name} (${r.phone})`, slug: r.slug, phone: r.phone }));
  const phone = normalizePhone(term);
  if (!phone || isHeadOffice(scope) || own.some((o) => o.phone === phone)) return own;
  const elsewhere = db
    .select({ id: R.id })
    .from(R)
    .where(and(isNull(R.deleted_at), eq(R.phone, phone)))
    .limit(1)
    .get();
  if (!elsewhere) return own;
  return [
    ...own,
    { value: null, label: `Registered customer at another branch (${maskPhone(phone)})`, slug: null, phone },
  ].slice(0, limit);
}
