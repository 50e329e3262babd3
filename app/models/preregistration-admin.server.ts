/**
 * The back office's view of pre-registrations: who may see which, the paged
 * list with its filters and search, the download, the detail with the code
 * shown only to staff allowed to see codes, edit and delete. Creating,
 * verifying and drawing go through app/models/preregistration.server.ts.
 *
 * Branch scope (docs/decisions/0005-counter-journey.md):
 * - head office sees every pre-registration;
 * - a branch user's lists show the pre-registrations made at its branch and the
 *   public ones (no branch) that named it as nearest showroom;
 * - a public pre-registration belongs to no branch, so any branch may open it
 *   by its slug and serve the customer who walks in; the list finds it by the
 *   customer's full phone number;
 * - a pre-registration made at another branch is never reachable.
 */
import { and, count, desc, eq, gte, isNull, lt, ne, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { db, schema } from "@db/index";
import { fileUrl } from "~/models/file.server";
import { CAMPAIGN, preregistrationScope } from "~/models/preregistration.server";
import { latestCode } from "~/models/otp.server";
import { firstThrill, totalPrize } from "~/models/prize-constants";
import { likePrefix, runTable, type TableParams, type TableResult } from "~/utils/datatable.server";
import { normalizePhone } from "~/utils/phone";
import { displayDateTime, kathmanduDayRange, kathmanduToUtc, nowIso } from "~/utils/time";
import { PREREGISTRATION_STATUSES, STATUS_LABELS, type PreregistrationStatus } from "~/components/counter/labels";
import type { Scope } from "./scope.server";

const { preregistrations: P, registrations: R, branches, bikeModels } = schema;
const nearest = alias(branches, "nearest_branch");

// ---------------------------------------------------------------- scope

/** Rows a branch user's lists show: made at its branch, or public with it as nearest showroom. */
export function preregistrationListScope(scope: Scope): SQL | undefined {
  if (scope.branchId === null) return undefined;
  return or(eq(P.branch_id, scope.branchId), and(isNull(P.branch_id), eq(P.nearest_branch_id, scope.branchId)));
}

/** Rows a branch user may open by slug: the one rule of app/models/preregistration.server.ts. */
export const preregistrationAccessScope = (scope: Scope): SQL | undefined => preregistrationScope(scope);

/** Whether staff of this scope may see a proof screenshot: it belongs to a pre-registration they may open. */
export function canOpenScreenshot(scope: Scope, fileId: number): boolean {
  if (scope.branchId === null) return true;
  return !!db
    .select({ id: P.id })
    .from(P)
    .where(and(eq(P.screenshot_id, fileId), preregistrationAccessScope(scope)))
    .get();
}

// ---------------------------------------------------------------- search

/**
 * The full-text query for a search term: each word of 3 or more characters as
 * a quoted substring (trigram index); null when no word is long enough.
 */
export function ftsQuery(term: string): string | null {
  const words = term
    .split(/\s+/)
    .map((w) => w.replace(/"/g, ""))
    .filter((w) => [...w].length >= 3);
  if (!words.length) return null;
  return words.map((w) => `"${w}"`).join(" ");
}

/** Search over name, phone and citizenship number through the full-text index. */
export function preregistrationSearch(term: string): SQL | undefined {
  const q = ftsQuery(term);
  if (q) return sql`${P.id} in (select rowid from preregistrations_fts where preregistrations_fts match ${q})`;
  const t = term.trim();
  if (!t) return undefined;
  return or(likePrefix(P.phone, t), likePrefix(P.name, t), likePrefix(P.citizenship_no, t));
}

// ---------------------------------------------------------------- dates

/**
 * The UTC bounds of a from/to filter given as Kathmandu dates (YYYY-MM-DD,
 * "to" inclusive: the whole day) or date-times (YYYY-MM-DDTHH:mm).
 */
export function dateBounds(from?: string | null, to?: string | null): { from: string | null; to: string | null } {
  const ok = (s?: string | null) => !!s && /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2})?/.test(s);
  return {
    from: ok(from) ? kathmanduToUtc(from!) : null,
    to: ok(to) ? (/^\d{4}-\d{2}-\d{2}$/.test(to!) ? kathmanduDayRange(to!).end : kathmanduToUtc(to!)) : null,
  };
}

const positiveInt = (v: string | null | undefined): number | null => {
  const n = Number(v);
  return v && Number.isInteger(n) && n > 0 ? n : null;
};
const nonNegativeInt = (v: string | null | undefined): number | null => {
  const n = Number(v);
  return v !== null && v !== undefined && v !== "" && Number.isInteger(n) && n >= 0 ? n : null;
};

// ---------------------------------------------------------------- list

export { PREREGISTRATION_STATUSES, STATUS_LABELS, type PreregistrationStatus };

export type PreregistrationFilters = {
  bike_model?: number | null;
  branch?: number | null;
  from?: string | null;
  to?: string | null;
  /** Second-thrill amount. */
  prize?: number | null;
  status?: PreregistrationStatus | null;
  /** Phone (or name, citizenship number) search. */
  phone?: string | null;
};

/** The filters of the list, its download and the API from a query string. */
export function readPreregistrationFilters(params: URLSearchParams): PreregistrationFilters {
  const status = params.get("status");
  return {
    bike_model: positiveInt(params.get("bike_model")),
    branch: positiveInt(params.get("branch")),
    from: params.get("from") || null,
    to: params.get("to") || null,
    prize: nonNegativeInt(params.get("prize")),
    status: (PREREGISTRATION_STATUSES as readonly string[]).includes(status ?? "")
      ? (status as PreregistrationStatus)
      : null,
    phone:
      (params.get("phone") ?? params.get("search[value]") ?? params.get("search") ?? "").trim().slice(0, 100) || null,
  };
}

function filterConditions(f: PreregistrationFilters, scope: Scope): (SQL | undefined)[] {
  const bounds = dateBounds(f.from, f.to);
  return [
    f.bike_model ? eq(P.bike_model_id, f.bike_model) : undefined,
    f.branch && scope.branchId === null
      ? or(eq(P.branch_id, f.branch), and(isNull(P.branch_id), eq(P.nearest_branch_id, f.branch)))
      : undefined,
    bounds.from ? gte(P.created_at, bounds.from) : undefined,
    bounds.to ? lt(P.created_at, bounds.to) : undefined,
    f.prize !== null && f.prize !== undefined ? eq(P.prize, f.prize) : undefined,
    f.status ? eq(P.status, f.status) : undefined,
  ];
}

/**
 * Conditions of the search term. A branch user typing a customer's full phone
 * number also finds a public pre-registration that named another showroom.
 */
function searchCondition(
  term: string | null | undefined,
  scope: Scope,
): { base: SQL | undefined; match: SQL | undefined } {
  const t = (term ?? "").trim();
  const phone = normalizePhone(t);
  const listScope = preregistrationListScope(scope);
  // (campaign, phone) is the unique index: a full phone number is one index lookup.
  const samePhone = phone ? and(eq(P.campaign, CAMPAIGN), eq(P.phone, phone)) : undefined;
  if (samePhone && scope.branchId !== null) {
    return { base: or(listScope, and(isNull(P.branch_id), samePhone)), match: samePhone };
  }
  return { base: listScope, match: t ? (samePhone ?? preregistrationSearch(t)) : undefined };
}

const selection = {
  id: P.id,
  slug: P.slug,
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

export function listPreregistrations(
  scope: Scope,
  params: TableParams,
  filters: PreregistrationFilters,
): TableResult<PreregistrationRow> {
  const { base, match } = searchCondition(filters.phone, scope);
  return runTable(
    { ...params, search: "" },
    {
      orderable: { id: P.id, created_at: P.created_at, name: P.name, prize: P.prize, phone: P.phone },
      defaultOrder: { column: "id", dir: "desc" },
      base: [isNull(P.deleted_at), base],
      filters: [...filterConditions(filters, scope), match],
      count: (where) => db.select({ n: count() }).from(P).where(where).get()?.n ?? 0,
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

/** Every row of the list's filters for the download, newest first, read in pages. */
export function* exportPreregistrations(scope: Scope, filters: PreregistrationFilters): Generator<PreregistrationRow> {
  const { base, match } = searchCondition(filters.phone, scope);
  const where = and(isNull(P.deleted_at), base, ...filterConditions(filters, scope), match);
  const pageSize = 5000;
  for (let lastId = Number.MAX_SAFE_INTEGER; ;) {
    const page = joined()
      .where(and(where, lt(P.id, lastId)))
      .orderBy(desc(P.id))
      .limit(pageSize)
      .all();
    if (!page.length) return;
    for (const row of page) yield shape(row);
    lastId = page[page.length - 1].id;
    if (page.length < pageSize) return;
  }
}

/** Columns of Preregistrations.xls. */
export const PREREGISTRATION_COLUMNS = [
  { header: "Slug", value: (r: PreregistrationRow) => r.slug },
  { header: "Name", value: (r: PreregistrationRow) => r.name },
  { header: "Address", value: (r: PreregistrationRow) => r.address },
  { header: "Phone", value: (r: PreregistrationRow) => r.phone },
  { header: "Email", value: (r: PreregistrationRow) => r.email },
  { header: "Citizenship No/PAN", value: (r: PreregistrationRow) => r.citizenship_no },
  { header: "Model", value: (r: PreregistrationRow) => r.bike_model?.title ?? "" },
  { header: "Source", value: (r: PreregistrationRow) => r.source },
  { header: "Shared", value: (r: PreregistrationRow) => (r.shared ? "Yes" : "No") },
  { header: "Status", value: (r: PreregistrationRow) => STATUS_LABELS[r.status] },
  { header: "Prize", value: (r: PreregistrationRow) => r.prize },
  { header: "Total Prize", value: (r: PreregistrationRow) => r.total_prize },
  { header: "Branch", value: (r: PreregistrationRow) => r.branch?.title ?? "" },
  { header: "Nearest Branch", value: (r: PreregistrationRow) => r.nearest_branch?.title ?? "" },
  { header: "City", value: (r: PreregistrationRow) => r.city },
  { header: "Note", value: (r: PreregistrationRow) => r.note },
  { header: "Registered", value: (r: PreregistrationRow) => displayDateTime(r.created_at) },
];

// ---------------------------------------------------------------- one record

export type PreregistrationDetail = PreregistrationRow & {
  /** The latest one-time code, only for staff allowed to see codes. */
  code: string | null;
};

/** One pre-registration the scope may open, or null. */
export function findPreregistration(
  scope: Scope,
  slug: string,
  { withDeleted = false } = {},
): PreregistrationRow | null {
  const row = joined()
    .where(and(eq(P.slug, slug), withDeleted ? undefined : isNull(P.deleted_at), preregistrationAccessScope(scope)))
    .get();
  return row ? shape(row) : null;
}

/** The detail screen and GET /api/v1/preregistration/{id}: the code only when `showCode`. */
export function getPreregistrationDetail(
  scope: Scope,
  slug: string,
  { showCode = false } = {},
): PreregistrationDetail | null {
  const row = findPreregistration(scope, slug);
  if (!row) return null;
  return { ...row, code: showCode ? (latestCode("preregistration", row.id)?.code ?? null) : null };
}

/** Which actions the detail screen offers in this state (spec 000 §4). */
export function preregistrationActions(row: Pick<PreregistrationRow, "is_verified" | "purchased" | "registration">) {
  const purchased = row.purchased || row.registration !== null;
  return {
    verify: !row.is_verified,
    register: row.is_verified && !purchased,
    viewRegistration: purchased && row.registration !== null,
    edit: !purchased,
    delete: !purchased,
    draw: row.is_verified,
  };
}

// ---------------------------------------------------------------- changes

export type AdminFailure = { ok: false; status: 404 | 409 | 422; message: string; errors: Record<string, string[]> };

export const PREREGISTRATION_ADMIN_MESSAGES = {
  notFound: "Pre-registration not found.",
  purchasedNoDelete: "This pre-registration has a registration and cannot be deleted.",
  purchasedNoEdit: "This pre-registration has a registration and can no longer be edited.",
  phoneLocked: "The phone number of a verified pre-registration cannot be changed.",
  phoneTaken: "The phone has already been taken.",
  deleted: "Pre-registration deleted.",
  updated: "Pre-registration updated.",
  bikeModelMissing: "The selected bike model is invalid.",
  branchMissing: "The selected branch is invalid.",
} as const;

const fail = (
  status: AdminFailure["status"],
  message: string,
  errors: Record<string, string[]> = {},
): AdminFailure => ({
  ok: false,
  status,
  message,
  errors,
});

/** Soft delete; a purchased pre-registration stays. */
export function deletePreregistration(scope: Scope, slug: string): { ok: true } | AdminFailure {
  return db.transaction(
    (tx) => {
      const row = tx
        .select({ id: P.id, purchased: P.purchased })
        .from(P)
        .where(and(eq(P.slug, slug), isNull(P.deleted_at), preregistrationAccessScope(scope)))
        .get();
      if (!row) return fail(404, PREREGISTRATION_ADMIN_MESSAGES.notFound);
      const reg = tx.select({ id: R.id }).from(R).where(eq(R.preregistration_id, row.id)).get();
      if (row.purchased || reg) return fail(409, PREREGISTRATION_ADMIN_MESSAGES.purchasedNoDelete);
      tx.update(P).set({ deleted_at: nowIso(), updated_at: nowIso() }).where(eq(P.id, row.id)).run();
      return { ok: true as const };
    },
    { behavior: "immediate" },
  );
}

export type PreregistrationUpdate = {
  name: string;
  address: string;
  email?: string | null;
  phone?: string | null;
  citizenship_no: string;
  shared?: boolean;
  screenshot_id?: number | null;
  bike_model_id?: number | null;
  source?: string | null;
  note?: string | null;
  send_sms?: boolean;
  nearest_branch_id?: number | null;
  /** Head office only: the branch the pre-registration belongs to. */
  branch_id?: number | null;
};

/**
 * Edits a pre-registration the scope may open. The phone of a verified one is
 * read-only; a changed phone must be free. A purchased one cannot change.
 */
export function updatePreregistration(
  scope: Scope,
  slug: string,
  input: PreregistrationUpdate,
): { ok: true; row: PreregistrationRow } | AdminFailure {
  const outcome = db.transaction(
    (tx): { ok: true; id: number } | AdminFailure => {
      const row = tx
        .select()
        .from(P)
        .where(and(eq(P.slug, slug), isNull(P.deleted_at), preregistrationAccessScope(scope)))
        .get();
      if (!row) return fail(404, PREREGISTRATION_ADMIN_MESSAGES.notFound);
      if (row.purchased) return fail(409, PREREGISTRATION_ADMIN_MESSAGES.purchasedNoEdit);
      const errors: Record<string, string[]> = {};
      let phone = row.phone;
      const given = input.phone ? (normalizePhone(input.phone) ?? input.phone) : null;
      if (given && given !== row.phone) {
        if (row.is_verified) errors.phone = [PREREGISTRATION_ADMIN_MESSAGES.phoneLocked];
        else {
          const taken = tx
            .select({ id: P.id })
            .from(P)
            .where(and(eq(P.campaign, row.campaign), eq(P.phone, given), ne(P.id, row.id)))
            .get();
          if (taken) errors.phone = [PREREGISTRATION_ADMIN_MESSAGES.phoneTaken];
          else phone = given;
        }
      }
      if (input.bike_model_id) {
        const model = tx
          .select({ id: bikeModels.id })
          .from(bikeModels)
          .where(and(eq(bikeModels.id, input.bike_model_id), isNull(bikeModels.deleted_at)))
          .get();
        if (!model) errors.bike_model_id = [PREREGISTRATION_ADMIN_MESSAGES.bikeModelMissing];
      }
      for (const key of ["nearest_branch_id", "branch_id"] as const) {
        const id = input[key];
        if (!id) continue;
        const b = tx
          .select({ id: branches.id })
          .from(branches)
          .where(and(eq(branches.id, id), isNull(branches.deleted_at)))
          .get();
        if (!b) errors[key] = [PREREGISTRATION_ADMIN_MESSAGES.branchMissing];
      }
      if (Object.keys(errors).length) return fail(422, Object.values(errors)[0][0], errors);
      tx.update(P)
        .set({
          name: input.name,
          address: input.address,
          email: input.email ?? null,
          phone,
          citizenship_no: input.citizenship_no,
          shared: input.shared ?? row.shared,
          screenshot_id: input.screenshot_id !== undefined ? input.screenshot_id : row.screenshot_id,
          bike_model_id: input.bike_model_id !== undefined ? input.bike_model_id : row.bike_model_id,
          source: input.source !== undefined ? input.source : row.source,
          note: input.note !== undefined ? input.note : row.note,
          send_sms: input.send_sms ?? row.send_sms,
          nearest_branch_id: input.nearest_branch_id !== undefined ? input.nearest_branch_id : row.nearest_branch_id,
          branch_id: scope.branchId === null && input.branch_id !== undefined ? input.branch_id : row.branch_id,
          updated_at: nowIso(),
        })
        .where(eq(P.id, row.id))
        .run();
      return { ok: true, id: row.id };
    },
    { behavior: "immediate" },
  );
  if (!outcome.ok) return outcome;
  return { ok: true, row: findPreregistration(scope, slug)! };
}

/** The slug behind an API key: a slug, or a numeric id inside the scope. */
export function resolvePreregistrationKey(scope: Scope, key: string): string | null {
  if (!/^\d+$/.test(key)) return key;
  const row = db
    .select({ slug: P.slug })
    .from(P)
    .where(and(eq(P.id, Number(key)), isNull(P.deleted_at), preregistrationAccessScope(scope)))
    .get();
  return row?.slug ?? key;
}

/** Update fields the API call left out keep their stored values ("non-empty fields" are sent). */
export function withStoredValues(row: PreregistrationRow, form: FormData): FormData {
  const stored: Record<string, string> = {
    name: row.name,
    address: row.address,
    email: row.email ?? "",
    phone: row.phone,
    citizenship_no: row.citizenship_no,
    bike_model_id: row.bike_model_id ? String(row.bike_model_id) : "",
    source: row.source ?? "",
    note: row.note ?? "",
    nearest_branch_id: row.nearest_branch_id ? String(row.nearest_branch_id) : "",
  };
  const out = new FormData();
  form.forEach((v, k) => out.append(k, v));
  for (const [k, v] of Object.entries(stored)) if (!out.has(k) && v) out.set(k, v);
  if (!out.has("shared") && row.shared) out.set("shared", "on");
  if (!out.has("send_sms")) out.set("send_sms", row.send_sms ? "on" : "off");
  return out;
}
