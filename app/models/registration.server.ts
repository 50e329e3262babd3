/**
 * Registrations (purchases): turning a verified pre-registration into a
 * purchase, the purchase confirmation code, the third-thrill coupon draw,
 * notify, edit, soft delete and restore, the lists with their filters and
 * search, the download, the referrer search and the print sheet's rows.
 * Every query takes the caller's branch scope inside its WHERE clause.
 *
 * States: pending (made, code sent) → confirmed (the customer's code entered)
 * → drawn (third thrill drawn through the prize engine). Deleted is
 * deleted_at set; restore clears it.
 */
import { and, count, desc, eq, gte, isNotNull, isNull, lt, ne, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import crypto from "node:crypto";
import { db, schema } from "@db/index";
import { fileUrl } from "~/models/file.server";
import { issueCode, latestCode, verifyCode, type IssueResult } from "~/models/otp.server";
import { FIRST_THRILL, prizeBreakdown, prizeLabel } from "~/models/prize-constants";
import { drawThirdThrill, DrawError } from "~/models/prize-draw.server";
import type { Executor } from "~/models/prize-settings.server";
import { sendSms } from "~/models/sms.server";
import {
  isPaymentMode,
  REGISTRATION_MESSAGES as M,
  vehicleNumber,
  type PaymentMode,
  type RegistrationInput,
  type RegistrationUpdateInput,
} from "~/schemas/registration";
import { likePrefix, runTable, type TableParams, type TableResult } from "~/utils/datatable.server";
import { maskPhone, normalizePhone } from "~/utils/phone";
import { displayDateTime, kathmanduDate, now as clockNow } from "~/utils/time";
import { dateBounds, ftsQuery, preregistrationAccessScope } from "./preregistration-admin.server";
import { branchCondition, type Scope } from "./scope.server";

const { registrations: R, preregistrations: P, branches, bikeModels } = schema;
const preBranch = alias(branches, "pre_branch");
const referrer = alias(R, "referrer");

// ---------------------------------------------------------------- outcomes

export type Failure = {
  ok: false;
  status: 403 | 404 | 409 | 422;
  message: string;
  /** Field → messages (the spec's error shape); "form" for errors without a field. */
  errors: Record<string, string[]>;
};

const fail = (status: Failure["status"], message: string, errors: Record<string, string[]> = {}): Failure => ({
  ok: false,
  status,
  message,
  errors,
});

class Abort extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
  }
}

// ---------------------------------------------------------------- small rules

/** bill_no as stored: "B{branch id}-" before what staff typed (kept once if already there). */
export function prefixBill(branchId: number, bill: string): string {
  const clean = bill.trim();
  const prefix = `B${branchId}-`;
  return clean.toUpperCase().startsWith(prefix) ? prefix + clean.slice(prefix.length) : prefix + clean;
}

/** What staff typed, without the branch prefix (edit form). */
export function billWithoutPrefix(branchId: number, bill: string): string {
  const prefix = `B${branchId}-`;
  return bill.toUpperCase().startsWith(prefix) ? bill.slice(prefix.length) : bill;
}

const COUPON_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/** A coupon code such as "TH-7KQ4-P9XD": 40 random bits, no look-alike characters. */
export function newCouponCode(): string {
  const bytes = crypto.randomBytes(8);
  let out = "";
  for (let i = 0; i < 8; i++) out += COUPON_ALPHABET[bytes[i] % 32];
  return `TH-${out.slice(0, 4)}-${out.slice(4)}`;
}

const purchaseCodeText = (code: string) =>
  `Your purchase confirmation code is ${code}. Give it to the showroom staff to confirm your purchase. Valid for 10 minutes.`;

// ---------------------------------------------------------------- reading

/** Full-text search over name, phone, citizenship/PAN, bill, engine, chassis and vehicle numbers. */
export function registrationSearch(term: string): SQL | undefined {
  const q = ftsQuery(term);
  if (q) return sql`${R.id} in (select rowid from registrations_fts where registrations_fts match ${q})`;
  const t = term.trim();
  if (!t) return undefined;
  return or(likePrefix(R.phone, t), likePrefix(R.name, t), likePrefix(R.bill_no, t));
}

/** Total prize (first + second + third) as SQL, for the `prize` filter; the rule itself is prizeBreakdown's. */
const totalPrizeSql = sql`(case when ${P.shared} = 1 and ${P.is_verified} = 1 then ${FIRST_THRILL} else 0 end + coalesce(${P.prize}, 0) + coalesce(${R.coupon_amount}, 0))`;

export const REGISTRATION_STATUSES = ["pending", "confirmed", "drawn"] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];

export type RegistrationFilters = {
  payment_mode?: PaymentMode | null;
  bike_model?: number | null;
  branch?: number | null;
  /** Kathmandu date or date-time; "to" as a date is inclusive. */
  from?: string | null;
  to?: string | null;
  /** Total prize won (first + second + third). */
  prize?: number | null;
  /** Second thrill: the pre-registration's prize. */
  pre_prize?: number | null;
  /** Third thrill: the coupon amount (0 = drawn without a coupon). */
  post_prize?: number | null;
  status?: RegistrationStatus | null;
  search?: string | null;
  /** One registration (print a single coupon pair). */
  slug?: string | null;
};

const int = (v: string | null, min: number): number | null => {
  if (v === null || v.trim() === "") return null;
  const n = Number(v);
  return Number.isInteger(n) && n >= min ? n : null;
};

/** The filters from a query string (list page, API, download, print). */
export function readRegistrationFilters(params: URLSearchParams): RegistrationFilters {
  const mode = params.get("payment_mode");
  const status = params.get("status");
  return {
    payment_mode: isPaymentMode(mode) ? mode : null,
    bike_model: int(params.get("bike_model"), 1),
    branch: int(params.get("branch"), 1),
    from: params.get("from") || null,
    to: params.get("to") || null,
    prize: int(params.get("prize"), 0),
    pre_prize: int(params.get("pre_prize"), 0),
    post_prize: int(params.get("post_prize"), 0),
    status: (REGISTRATION_STATUSES as readonly string[]).includes(status ?? "") ? (status as RegistrationStatus) : null,
    search: (params.get("search[value]") ?? params.get("search") ?? params.get("q") ?? "").trim().slice(0, 100) || null,
    slug: params.get("slug") || null,
  };
}

/** The filters as a query string (links to the download and the print sheet). */
export function filtersQuery(f: RegistrationFilters): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v !== null && v !== undefined && v !== "") q.set(k, String(v));
  return q.toString();
}

function filterConditions(f: RegistrationFilters, scope: Scope): (SQL | undefined)[] {
  const bounds = dateBounds(f.from, f.to);
  return [
    f.payment_mode ? eq(R.payment_mode, f.payment_mode) : undefined,
    f.bike_model ? eq(R.bike_model_id, f.bike_model) : undefined,
    f.branch && scope.branchId === null ? eq(R.branch_id, f.branch) : undefined,
    bounds.from ? gte(R.created_at, bounds.from) : undefined,
    bounds.to ? lt(R.created_at, bounds.to) : undefined,
    f.prize !== null && f.prize !== undefined ? sql`${totalPrizeSql} = ${f.prize}` : undefined,
    f.pre_prize !== null && f.pre_prize !== undefined ? eq(P.prize, f.pre_prize) : undefined,
    f.post_prize !== null && f.post_prize !== undefined ? eq(R.coupon_amount, f.post_prize) : undefined,
    f.status ? eq(R.status, f.status) : undefined,
    f.slug ? eq(R.slug, f.slug) : undefined,
  ];
}

const needsPreJoin = (f: RegistrationFilters) =>
  (f.prize !== null && f.prize !== undefined) || (f.pre_prize !== null && f.pre_prize !== undefined);

const selection = {
  id: R.id,
  slug: R.slug,
  bill_no: R.bill_no,
  name: R.name,
  address: R.address,
  citizenship_no: R.citizenship_no,
  pan: R.pan,
  email: R.email,
  phone: R.phone,
  bike_model_id: R.bike_model_id,
  engine_no: R.engine_no,
  chasis_no: R.chasis_no,
  registration_no: R.registration_no,
  payment_mode: R.payment_mode,
  note: R.note,
  send_sms: R.send_sms,
  branch_id: R.branch_id,
  preregistration_id: R.preregistration_id,
  registration_id: R.registration_id,
  referred_by: R.referred_by,
  shared: R.shared,
  status: R.status,
  confirmed_at: R.confirmed_at,
  purchase_date: R.purchase_date,
  coupon_amount: R.coupon_amount,
  coupon_code: R.coupon_code,
  created_at: R.created_at,
  updated_at: R.updated_at,
  deleted_at: R.deleted_at,
  bike_model_title: bikeModels.title,
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

function joined() {
  return db
    .select(selection)
    .from(R)
    .innerJoin(P, eq(P.id, R.preregistration_id))
    .leftJoin(bikeModels, eq(bikeModels.id, R.bike_model_id))
    .leftJoin(branches, eq(branches.id, R.branch_id))
    .leftJoin(preBranch, eq(preBranch.id, sql`coalesce(${P.branch_id}, ${P.nearest_branch_id})`))
    .leftJoin(referrer, eq(referrer.id, R.registration_id));
}

type Flat = ReturnType<ReturnType<typeof joined>["all"]>[number];

function shape(r: Flat) {
  const {
    bike_model_title,
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
  return {
    ...rest,
    bike_model: { title: bike_model_title ?? "" },
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
    referrer: referrer_slug ? { slug: referrer_slug, name: referrer_name ?? "" } : null,
    prizes,
    total_prize: prizes.total,
  };
}

export type RegistrationRow = ReturnType<typeof shape>;
export type RegistrationDetail = RegistrationRow & { code: string | null };

function countRegistrations(where: SQL | undefined, withPre: boolean): number {
  const q = db.select({ n: count() }).from(R);
  return (withPre ? q.innerJoin(P, eq(P.id, R.preregistration_id)).where(where) : q.where(where)).get()?.n ?? 0;
}

function listWith(
  scope: Scope,
  params: TableParams,
  filters: RegistrationFilters,
  deleted: boolean,
): TableResult<RegistrationRow> {
  const term = filters.search ?? params.search;
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
      base: [deleted ? isNotNull(R.deleted_at) : isNull(R.deleted_at), branchCondition(R.branch_id, scope)],
      filters: [...filterConditions(filters, scope), term ? registrationSearch(term) : undefined],
      count: (where) => countRegistrations(where, needsPreJoin(filters)),
      rows: (where, orderBy, limit, offset) =>
        joined()
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

/** Every active row matching the filters, newest first, read in pages (download, print). */
export function* exportRegistrations(
  scope: Scope,
  filters: RegistrationFilters,
  { limit = Number.MAX_SAFE_INTEGER } = {},
): Generator<RegistrationRow> {
  const where = and(
    isNull(R.deleted_at),
    branchCondition(R.branch_id, scope),
    ...filterConditions(filters, scope),
    filters.search ? registrationSearch(filters.search) : undefined,
  );
  const pageSize = Math.min(5000, limit);
  let left = limit;
  for (let lastId = Number.MAX_SAFE_INTEGER; left > 0;) {
    const page = joined()
      .where(and(where, lt(R.id, lastId)))
      .orderBy(desc(R.id))
      .limit(Math.min(pageSize, left))
      .all();
    if (!page.length) return;
    for (const row of page) yield shape(row);
    left -= page.length;
    lastId = page[page.length - 1].id;
    if (page.length < pageSize) return;
  }
}

/** How many active rows match the filters (the print sheet's "of N"). */
export function countMatching(scope: Scope, filters: RegistrationFilters): number {
  const where = and(
    isNull(R.deleted_at),
    branchCondition(R.branch_id, scope),
    ...filterConditions(filters, scope),
    filters.search ? registrationSearch(filters.search) : undefined,
  );
  return countRegistrations(where, needsPreJoin(filters));
}

/** One registration in scope by slug (deleted ones too when asked), or null. */
export function findRegistration(scope: Scope, slug: string, { withDeleted = false } = {}): RegistrationRow | null {
  const row = joined()
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

/** The registration made from a pre-registration (in scope), if any. */
export function registrationOfPreregistration(scope: Scope, preregistrationId: number): RegistrationRow | null {
  const row = joined()
    .where(and(eq(R.preregistration_id, preregistrationId), branchCondition(R.branch_id, scope)))
    .get();
  return row ? shape(row) : null;
}

export const REGISTRATION_COLUMNS = [
  { header: "Slug", value: (r: RegistrationRow) => r.slug },
  { header: "Bill No", value: (r: RegistrationRow) => r.bill_no },
  { header: "Name", value: (r: RegistrationRow) => r.name },
  { header: "Address", value: (r: RegistrationRow) => r.address },
  { header: "Phone", value: (r: RegistrationRow) => r.phone },
  { header: "Email", value: (r: RegistrationRow) => r.email },
  { header: "Citizenship No", value: (r: RegistrationRow) => r.citizenship_no },
  { header: "PAN", value: (r: RegistrationRow) => r.pan },
  { header: "Model", value: (r: RegistrationRow) => r.bike_model.title },
  { header: "Engine No", value: (r: RegistrationRow) => r.engine_no },
  { header: "Chassis No", value: (r: RegistrationRow) => r.chasis_no },
  { header: "Registration No", value: (r: RegistrationRow) => r.registration_no },
  { header: "Payment Mode", value: (r: RegistrationRow) => r.payment_mode },
  { header: "Branch", value: (r: RegistrationRow) => r.branch.title },
  { header: "City", value: (r: RegistrationRow) => r.branch.city },
  { header: "Date of Purchase", value: (r: RegistrationRow) => r.purchase_date },
  { header: "Status", value: (r: RegistrationRow) => r.status },
  { header: "First Thrill", value: (r: RegistrationRow) => r.prizes.first },
  { header: "Second Thrill", value: (r: RegistrationRow) => r.prizes.second },
  { header: "Third Thrill", value: (r: RegistrationRow) => r.prizes.third },
  { header: "Total Prize", value: (r: RegistrationRow) => r.prizes.total },
  { header: "Coupon Code", value: (r: RegistrationRow) => r.coupon_code },
  { header: "Referred By", value: (r: RegistrationRow) => r.referred_by ?? r.referrer?.name ?? "" },
  { header: "Note", value: (r: RegistrationRow) => r.note },
  { header: "Registered", value: (r: RegistrationRow) => displayDateTime(r.created_at) },
];

// ---------------------------------------------------------------- referrer search

export type RegistrantOption = { value: number; label: string; slug: string; phone: string };

/**
 * Registered customers for the referrer field: by name, phone or bill within
 * the caller's branch, and anywhere by a full phone number. Branch users see
 * other branches' customers' phones masked.
 */
export function searchRegistrants(scope: Scope, q: string, limit = 10): RegistrantOption[] {
  const term = q.trim();
  if (!term) return [];
  const phone = normalizePhone(term);
  const inScope = and(branchCondition(R.branch_id, scope), registrationSearch(term));
  const rows = db
    .select({ id: R.id, slug: R.slug, name: R.name, phone: R.phone, branch_id: R.branch_id })
    .from(R)
    .where(and(isNull(R.deleted_at), phone ? or(eq(R.phone, phone), inScope) : inScope))
    .orderBy(desc(R.id))
    .limit(limit)
    .all();
  return rows.map((r) => {
    const own = scope.branchId === null || r.branch_id === scope.branchId;
    const shown = own ? r.phone : maskPhone(r.phone);
    return { value: r.id, label: `${r.name} (${shown})`, slug: r.slug, phone: shown };
  });
}

// ---------------------------------------------------------------- writing

type Fields = RegistrationUpdateInput;

function duplicateErrors(
  tx: Executor,
  v: { engine_no: string; chasis_no: string; registration_no: string; bill_no: string; branch_id: number },
  exceptId: number | null,
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const others = (cond: SQL) =>
    tx
      .select({ id: R.id })
      .from(R)
      .where(and(cond, isNull(R.deleted_at), exceptId === null ? undefined : ne(R.id, exceptId)))
      .limit(1)
      .get();
  if (others(eq(R.engine_no, v.engine_no))) errors.engine_no = [M.engineTaken];
  if (others(eq(R.chasis_no, v.chasis_no))) errors.chasis_no = [M.chasisTaken];
  if (others(eq(R.registration_no, v.registration_no))) errors.registration_no = [M.registrationNoTaken];
  if (others(and(eq(R.branch_id, v.branch_id), eq(R.bill_no, v.bill_no))!)) errors.bill_no = [M.billTaken];
  return errors;
}

/** A unique index refusing a row raced past the checks: the same field errors. */
function constraintErrors(err: unknown): Record<string, string[]> | null {
  const e = err as { code?: string; message?: string };
  if (e?.code !== "SQLITE_CONSTRAINT_UNIQUE") return null;
  const msg = String(e.message);
  if (msg.includes("engine_no")) return { engine_no: [M.engineTaken] };
  if (msg.includes("chasis_no")) return { chasis_no: [M.chasisTaken] };
  if (msg.includes("registration_no")) return { registration_no: [M.registrationNoTaken] };
  if (msg.includes("bill_no")) return { bill_no: [M.billTaken] };
  return null;
}

type Referrer =
  | { ok: true; registration_id: number | null; referred_by: string | null }
  | { ok: false; errors: Record<string, string[]> };

function resolveReferrer(
  tx: Executor,
  input: Pick<Fields, "registration_id" | "referrer" | "referred_by">,
  ownPhone: string,
  selfId: number | null,
): Referrer {
  const text = input.referrer?.trim();
  if (!input.registration_id && !text)
    return { ok: true, registration_id: null, referred_by: input.referred_by ?? null };
  const field = input.registration_id ? "registration_id" : "referrer";
  const phone = text ? normalizePhone(text) : null;
  const cond = input.registration_id ? eq(R.id, input.registration_id) : phone ? eq(R.phone, phone) : eq(R.slug, text!);
  const found = tx
    .select({ id: R.id, name: R.name, phone: R.phone })
    .from(R)
    .where(and(cond, isNull(R.deleted_at)))
    .orderBy(desc(R.id))
    .get();
  if (!found) return { ok: false, errors: { [field]: [M.referrerMissing] } };
  if (found.phone === ownPhone || found.id === selfId) return { ok: false, errors: { [field]: [M.referrerSelf] } };
  return { ok: true, registration_id: found.id, referred_by: input.referred_by ?? found.name };
}

function bikeModelExists(tx: Executor, id: number): boolean {
  return !!tx
    .select({ id: bikeModels.id })
    .from(bikeModels)
    .where(and(eq(bikeModels.id, id), isNull(bikeModels.deleted_at)))
    .get();
}

export type Actor = { id: number; scope: Scope };

export type CreateOutcome =
  { ok: true; registration: RegistrationRow; created: boolean; code: IssueResult | null } | Failure;

/**
 * Registers the purchase of a verified, not yet purchased pre-registration at
 * the actor's branch, and marks the pre-registration purchased, in one
 * transaction. bill_no gets the "B{branch}-" prefix. Duplicate engine, chassis
 * or vehicle numbers, or a bill number used at the branch, are field errors.
 * The same form token twice returns the first registration. Then the purchase
 * confirmation code goes to the customer's phone.
 */
export async function createRegistration(
  actor: Actor,
  preregistrationSlug: string,
  input: RegistrationInput,
): Promise<CreateOutcome> {
  const branchId = actor.scope.branchId;
  if (branchId === null) return fail(403, M.noBranch, { form: [M.noBranch] });
  const at = clockNow();
  let outcome: { id: number; slug: string; created: boolean; phone: string };
  try {
    outcome = db.transaction(
      (tx) => {
        if (input.form_token) {
          const again = tx
            .select({ id: R.id, slug: R.slug, phone: R.phone, branch_id: R.branch_id })
            .from(R)
            .where(eq(R.form_token, input.form_token))
            .get();
          if (again && again.branch_id === branchId) return { ...again, created: false };
        }
        const pre = tx
          .select()
          .from(P)
          .where(and(eq(P.slug, preregistrationSlug), isNull(P.deleted_at), preregistrationAccessScope(actor.scope)))
          .get();
        if (!pre) throw new Abort(fail(404, M.preregistrationNotFound));
        if (!pre.is_verified) throw new Abort(fail(409, M.notVerified, { form: [M.notVerified] }));
        const existing = tx.select({ id: R.id }).from(R).where(eq(R.preregistration_id, pre.id)).get();
        if (pre.purchased || existing) throw new Abort(fail(409, M.alreadyPurchased, { form: [M.alreadyPurchased] }));

        const values = {
          engine_no: vehicleNumber(input.engine_no),
          chasis_no: vehicleNumber(input.chasis_no),
          registration_no: vehicleNumber(input.registration_no),
          bill_no: prefixBill(branchId, input.bill_no),
          branch_id: branchId,
        };
        const errors = duplicateErrors(tx, values, null);
        if (!bikeModelExists(tx, input.bike_model_id)) errors.bike_model_id = [M.bikeModelMissing];
        const ref = resolveReferrer(tx, input, pre.phone, null);
        if (!ref.ok) Object.assign(errors, ref.errors);
        if (!ref.ok || Object.keys(errors).length) throw new Abort(fail(422, Object.values(errors)[0][0], errors));

        const row = tx
          .insert(R)
          .values({
            slug: crypto.randomBytes(12).toString("base64url"),
            ...values,
            name: input.name,
            address: input.address,
            citizenship_no: input.citizenship_no,
            pan: input.pan ?? null,
            email: input.email ?? null,
            phone: pre.phone,
            bike_model_id: input.bike_model_id,
            payment_mode: input.payment_mode,
            note: input.note ?? null,
            send_sms: input.send_sms,
            preregistration_id: pre.id,
            registration_id: ref.registration_id,
            referred_by: ref.referred_by,
            shared: pre.shared,
            status: "pending",
            purchase_date: kathmanduDate(at),
            coupon_code: uniqueCouponCode(tx),
            created_by: actor.id,
            form_token: input.form_token ?? null,
            created_at: at.toISOString(),
            updated_at: at.toISOString(),
          })
          .returning({ id: R.id, slug: R.slug, phone: R.phone })
          .get();
        tx.update(P)
          .set({ purchased: true, status: "purchased", updated_at: at.toISOString() })
          .where(eq(P.id, pre.id))
          .run();
        return { ...row, created: true };
      },
      { behavior: "immediate" },
    );
  } catch (err) {
    if (err instanceof Abort) return err.failure;
    const errors = constraintErrors(err);
    if (errors) return fail(422, Object.values(errors)[0][0], errors);
    throw err;
  }
  const code = outcome.created ? await sendPurchaseCode(outcome.id, outcome.phone) : null;
  return { ok: true, registration: findRegistration(actor.scope, outcome.slug)!, created: outcome.created, code };
}

function uniqueCouponCode(tx: Executor): string {
  for (;;) {
    const code = newCouponCode();
    if (!tx.select({ id: R.id }).from(R).where(eq(R.coupon_code, code)).get()) return code;
  }
}

function sendPurchaseCode(registrationId: number, phone: string): Promise<IssueResult> {
  return issueCode({
    purpose: "registration",
    subjectId: registrationId,
    phone,
    text: purchaseCodeText,
    smsPurpose: "purchase-code",
  });
}

export type UpdateOutcome = { ok: true; registration: RegistrationRow } | Failure;

/** Edits an active registration in scope; the phone, branch and pre-registration stay. */
export function updateRegistration(scope: Scope, slug: string, input: RegistrationUpdateInput): UpdateOutcome {
  try {
    const result = db.transaction(
      (tx) => {
        const reg = tx
          .select()
          .from(R)
          .where(and(eq(R.slug, slug), branchCondition(R.branch_id, scope)))
          .get();
        if (!reg) throw new Abort(fail(404, M.notFound));
        if (reg.deleted_at) throw new Abort(fail(409, M.deleted, { form: [M.deleted] }));
        const values = {
          engine_no: vehicleNumber(input.engine_no),
          chasis_no: vehicleNumber(input.chasis_no),
          registration_no: vehicleNumber(input.registration_no),
          bill_no: prefixBill(reg.branch_id, input.bill_no),
          branch_id: reg.branch_id,
        };
        const errors = duplicateErrors(tx, values, reg.id);
        if (!bikeModelExists(tx, input.bike_model_id)) errors.bike_model_id = [M.bikeModelMissing];
        const ref =
          input.registration_id || input.referrer
            ? resolveReferrer(tx, input, reg.phone, reg.id)
            : ({
                ok: true,
                registration_id: reg.registration_id,
                referred_by: input.referred_by ?? reg.referred_by,
              } as const);
        if (!ref.ok) Object.assign(errors, ref.errors);
        if (!ref.ok || Object.keys(errors).length) throw new Abort(fail(422, Object.values(errors)[0][0], errors));
        tx.update(R)
          .set({
            engine_no: values.engine_no,
            chasis_no: values.chasis_no,
            registration_no: values.registration_no,
            bill_no: values.bill_no,
            name: input.name,
            address: input.address,
            citizenship_no: input.citizenship_no,
            pan: input.pan ?? null,
            email: input.email ?? null,
            bike_model_id: input.bike_model_id,
            payment_mode: input.payment_mode,
            note: input.note ?? null,
            send_sms: input.send_sms,
            registration_id: ref.registration_id,
            referred_by: ref.referred_by,
            updated_at: clockNow().toISOString(),
          })
          .where(eq(R.id, reg.id))
          .run();
        return reg.slug;
      },
      { behavior: "immediate" },
    );
    return { ok: true, registration: findRegistration(scope, result)! };
  } catch (err) {
    if (err instanceof Abort) return err.failure;
    const errors = constraintErrors(err);
    if (errors) return fail(422, Object.values(errors)[0][0], errors);
    throw err;
  }
}

export type CodeOutcome =
  | { ok: true; registration: RegistrationRow; alreadyConfirmed: boolean }
  | (Failure & { reason?: "invalid" | "expired" | "exhausted" | "none" });

/**
 * Confirms a pending registration with the code the customer received. A
 * wrong code answers "Incorrect Code. Please Try again" (the caller then
 * resets, which sends a new code when the resend rules allow).
 */
export function confirmRegistration(scope: Scope, slug: string, code: string): CodeOutcome {
  const reg = findRegistration(scope, slug, { withDeleted: true });
  if (!reg) return fail(404, M.notFound);
  if (reg.deleted_at) return fail(409, M.deleted, { form: [M.deleted] });
  if (reg.status !== "pending") return { ok: true, registration: reg, alreadyConfirmed: true };
  const result = verifyCode({ purpose: "registration", subjectId: reg.id, code });
  if (!result.ok) return { ...fail(422, M.incorrectCode, { code: [M.incorrectCode] }), reason: result.reason };
  const at = clockNow().toISOString();
  db.update(R)
    .set({ status: "confirmed", confirmed_at: at, updated_at: at })
    .where(and(eq(R.id, reg.id), eq(R.status, "pending")))
    .run();
  return { ok: true, registration: findRegistration(scope, slug)!, alreadyConfirmed: false };
}

export type ResetOutcome = { ok: true; sent: boolean; retryAfterSeconds: number; message: string } | Failure;

/**
 * POST /api/v1/registration/{slug}/reset: sends the customer a new purchase
 * code (within the code rules: one a minute, five an hour). Answers the spec's
 * "Incorrect Code. Please Try again".
 */
export async function resetRegistrationCode(scope: Scope, slug: string): Promise<ResetOutcome> {
  const reg = findRegistration(scope, slug);
  if (!reg) return fail(404, M.notFound);
  if (reg.status !== "pending") return { ok: true, sent: false, retryAfterSeconds: 0, message: M.incorrectCode };
  const issued = await sendPurchaseCode(reg.id, reg.phone);
  return issued.ok
    ? { ok: true, sent: true, retryAfterSeconds: 0, message: M.incorrectCode }
    : { ok: true, sent: false, retryAfterSeconds: issued.retryAfterSeconds, message: M.incorrectCode };
}

export type DrawOutcome = { ok: true; registration: RegistrationRow; created: boolean } | Failure;

/**
 * The third-thrill draw of a confirmed registration through the prize engine
 * (drawing again returns the first result). With send_sms set, the customer
 * gets the prize summary.
 */
export async function drawCoupon(scope: Scope, slug: string): Promise<DrawOutcome> {
  const reg = findRegistration(scope, slug);
  if (!reg) return fail(404, M.notFound);
  if (reg.status === "pending") return fail(409, M.notConfirmed, { form: [M.notConfirmed] });
  try {
    const result = drawThirdThrill(reg.id);
    const drawn = findRegistration(scope, slug)!;
    if (result.created && drawn.send_sms)
      await sendSms({ to: drawn.phone, text: prizeSummary(drawn), purpose: "notify" });
    return { ok: true, registration: drawn, created: result.created };
  } catch (err) {
    if (err instanceof DrawError)
      return fail(err.code === "not_found" ? 404 : 409, err.message, { form: [err.message] });
    throw err;
  }
}

/** The prize summary SMS. */
export function prizeSummary(r: Pick<RegistrationRow, "name" | "prizes" | "coupon_code">): string {
  const p = r.prizes;
  const parts = [
    p.first ? `First Thrill ${prizeLabel(p.first)}` : null,
    `Second Thrill ${prizeLabel(p.second)}`,
    `Third Thrill ${p.third ? prizeLabel(p.third) : "none"}`,
  ].filter(Boolean);
  return `Dear ${r.name}, thank you for your purchase. Your Thrill prizes: ${parts.join(", ")}. Total ${prizeLabel(p.total)}. Coupon ${r.coupon_code}.`;
}

export type NotifyOutcome = { ok: true; status: "queued" | "sent" | "failed"; error: string | null } | Failure;

/** Sends the customer the prize summary by SMS (a drawn registration). */
export async function notifyRegistration(scope: Scope, slug: string): Promise<NotifyOutcome> {
  const reg = findRegistration(scope, slug);
  if (!reg) return fail(404, M.notFound);
  if (reg.status !== "drawn") return fail(409, M.notDrawn, { form: [M.notDrawn] });
  const sms = await sendSms({ to: reg.phone, text: prizeSummary(reg), purpose: "notify" });
  return { ok: true, status: sms.status, error: sms.error };
}

/** Soft delete: out of lists, stats and exports; its prize record stays. */
export function deleteRegistration(scope: Scope, slug: string): { ok: true } | Failure {
  const res = db
    .update(R)
    .set({ deleted_at: clockNow().toISOString() })
    .where(and(eq(R.slug, slug), isNull(R.deleted_at), branchCondition(R.branch_id, scope)))
    .run();
  return res.changes ? { ok: true } : fail(404, M.notFound);
}

/** Restores a deleted registration unless another active one took its numbers meanwhile. */
export function restoreRegistration(scope: Scope, slug: string): { ok: true } | Failure {
  return db.transaction(
    (tx) => {
      const reg = tx
        .select()
        .from(R)
        .where(and(eq(R.slug, slug), isNotNull(R.deleted_at), branchCondition(R.branch_id, scope)))
        .get();
      if (!reg) return fail(404, M.notFound);
      const errors = duplicateErrors(tx, reg, reg.id);
      const names: Record<string, string> = {
        engine_no: "engine no",
        chasis_no: "chasis no",
        registration_no: "registration no",
        bill_no: "bill no",
      };
      const clash = Object.keys(errors)[0];
      if (clash) return fail(409, M.restoreTaken(names[clash]), { [clash]: [M.restoreTaken(names[clash])] });
      tx.update(R).set({ deleted_at: null, updated_at: clockNow().toISOString() }).where(eq(R.id, reg.id)).run();
      return { ok: true as const };
    },
    { behavior: "immediate" },
  );
}

// ---------------------------------------------------------------- print sheet

/** Registrations printed at most on one sheet; narrower filters print the rest. */
export const PRINT_LIMIT = 1000;

export type PrintCoupon = {
  slug: string;
  coupon_code: string;
  name: string;
  phone: string;
  phone_masked: string;
  model: string;
  engine_no: string;
  chasis_no: string;
  registration_no: string;
  bill_no: string;
  branch: string;
  date: string;
  status: RegistrationStatus;
  prizes: { first: number; second: number; third: number; total: number };
};

export function toPrintCoupon(r: RegistrationRow): PrintCoupon {
  return {
    slug: r.slug,
    coupon_code: r.coupon_code,
    name: r.name,
    phone: r.phone,
    phone_masked: maskPhone(r.phone),
    model: r.bike_model.title,
    engine_no: r.engine_no,
    chasis_no: r.chasis_no,
    registration_no: r.registration_no,
    bill_no: r.bill_no,
    branch: r.branch.title,
    date: r.purchase_date.replaceAll("-", "/"),
    status: r.status,
    prizes: r.prizes,
  };
}

/** The print sheet's rows (the filters, at most `limit`), with how many matched in all. */
export function printRegistrations(scope: Scope, filters: RegistrationFilters, limit = PRINT_LIMIT) {
  const rows = [...exportRegistrations(scope, filters, { limit })];
  const total = rows.length < limit ? rows.length : countMatching(scope, filters);
  return { data: rows, total, limit };
}

// ---------------------------------------------------------------- counts used elsewhere

/** Active registrations per branch id (branch stats). */
export function registrationCountsByBranch(scope: Scope, since?: string): Map<number, number> {
  const rows = db
    .select({ branch_id: R.branch_id, n: count() })
    .from(R)
    .where(and(isNull(R.deleted_at), branchCondition(R.branch_id, scope), since ? gte(R.created_at, since) : undefined))
    .groupBy(R.branch_id)
    .all();
  return new Map(rows.map((r) => [r.branch_id, r.n]));
}
