/**
 * Test rides and bookings: the public booking ("Book a Ride"), and the back
 * office's list, detail, delete and download, always inside the user's branch
 * scope.
 *
 * The booking takes values parsed by testRideSchema; the route's guard does
 * the honeypot, the captcha and the client address's limit (app/utils/
 * public-guard.server.ts), and hands the address's point to the booking's
 * transaction, so a booking is one commit: the record and its rate-limit
 * counters.
 */
import { label } from "~/utils/labels";
import { and, count, desc, eq, gte, isNull, lt, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { db, schema, type Tx } from "@db/index";
import type { TestRide } from "@db/schema";
import { audit, diff } from "~/models/audit.server";
import { fail, FailureError, type Failure, type FieldErrors, type Result } from "~/utils/failure";
import { transact } from "~/models/transaction.server";
import { isDateOrDateTime } from "~/schemas/primitives";
import { TEST_RIDE_MESSAGES as TR, type TestRideFilters, type TestRideInput } from "~/schemas/test-ride";
import { randomSlug } from "~/utils/crypto.server";
import { runTable, type TableParams } from "~/utils/datatable.server";
import { EXPORT_PAGE_ROWS } from "~/utils/spreadsheet.server";
import { take } from "~/utils/rate-limit.server";
import { displayDateTime, kathmanduBounds, nowIso } from "~/utils/time";
import { findActiveBikeModel } from "./bike-model.server";
import { narrowBooking, type BookingBranch } from "./booking-cascade";
import { listBranches } from "./branch.server";
import { referralFor } from "./referrer.server";
import { branchCondition, type Scope, type ScopedActor } from "./scope.server";
import type { Referral } from "~/utils/share-link.server";

export type { TestRideFilters };

const { testRides, bikeModels, branches, registrations } = schema;
const referrer = alias(registrations, "referrer");

export const TEST_RIDE_NOT_FOUND = "Test ride not found.";

// ---------------------------------------------------------------- back office

/** From/to as the download may still pass them, unparsed: values that are not dates are left out. */
type LooseDateRange = { from?: string | null; to?: string | null };

const checked = (v: string | null | undefined) => (v && isDateOrDateTime(v) ? v : null);

function filterConditions(f: TestRideFilters | LooseDateRange): (SQL | undefined)[] {
  const bounds = kathmanduBounds(checked(f.from), checked(f.to));
  return [
    bounds.from ? gte(testRides.created_at, bounds.from) : undefined,
    bounds.to ? lt(testRides.created_at, bounds.to) : undefined,
  ];
}

const baseConditions = (scope: Scope) => [isNull(testRides.deleted_at), branchCondition(testRides.branch_id, scope)];

const selection = {
  id: testRides.id,
  slug: testRides.slug,
  type: testRides.type,
  first_name: testRides.first_name,
  last_name: testRides.last_name,
  name: testRides.name,
  email: testRides.email,
  phone: testRides.phone,
  state: testRides.state,
  district: testRides.district,
  city: testRides.city,
  utm_source: testRides.utm_source,
  created_at: testRides.created_at,
  bike_model_id: testRides.bike_model_id,
  branch_id: testRides.branch_id,
  bike_model_title: bikeModels.title,
  branch_title: branches.title,
  referrer_id: testRides.referrer_id,
  referrer_name: referrer.name,
};

/** Bookings with their model, branch and referrer (a registered customer of the scope's reach). */
function joined(scope: Scope) {
  return db
    .select(selection)
    .from(testRides)
    .leftJoin(bikeModels, eq(bikeModels.id, testRides.bike_model_id))
    .leftJoin(branches, eq(branches.id, testRides.branch_id))
    .leftJoin(referrer, and(eq(referrer.id, testRides.referrer_id), branchCondition(referrer.branch_id, scope)));
}

type Flat = ReturnType<ReturnType<typeof joined>["all"]>[number];

/** A referrer the viewer's scope does not reach is named as the registration screens name it (decision 5). */
const OTHER_BRANCH_REFERRER = "A customer of another branch";

function shape({ bike_model_title, branch_title, referrer_id, referrer_name, ...rest }: Flat) {
  return {
    ...rest,
    bike_model: { title: bike_model_title ?? "" },
    branch: { title: branch_title ?? "" },
    referrer: referrer_name ? { title: referrer_name } : referrer_id ? { title: OTHER_BRANCH_REFERRER } : null,
  };
}

export type TestRideRow = ReturnType<typeof shape>;

/** The list (page and GET /api/v1/test-ride): filters parsed by testRideFiltersSchema. */
export function listTestRides(scope: Scope, params: TableParams, filters: TestRideFilters = {}) {
  return runTable(params, {
    orderable: { created_at: testRides.created_at, name: testRides.name, id: testRides.id },
    defaultOrder: { column: "id", dir: "desc" },
    base: baseConditions(scope),
    filters: filterConditions(filters),
    search: [testRides.name, testRides.phone, testRides.email],
    count: (where) => db.select({ n: count() }).from(testRides).where(where).get()?.n ?? 0,
    rows: (where, orderBy, limit, offset) =>
      joined(scope)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset)
        .all()
        .map(shape),
  });
}

/** A booking is addressed by its slug only: a sequential number is not a key (it answers not found). */
const byKey = (slug: string) => eq(testRides.slug, slug);

/** One booking by its slug, only inside the scope. */
export function getTestRide(scope: Scope, key: string): TestRideRow | null {
  const row = joined(scope)
    .where(and(byKey(key), ...baseConditions(scope)))
    .get();
  return row ? shape(row) : null;
}

/** Soft delete of a booking in the actor's reach, with its audit row; not found otherwise. */
export function deleteTestRide(actor: ScopedActor, key: string): Result {
  return transact((tx) => {
    const before = tx
      .select()
      .from(testRides)
      .where(and(byKey(key), ...baseConditions(actor.scope)))
      .get();
    if (!before) throw new FailureError(fail.notFound(TEST_RIDE_NOT_FOUND));
    const after = tx
      .update(testRides)
      .set({ deleted_at: nowIso() })
      .where(eq(testRides.id, before.id))
      .returning()
      .get();
    audit(tx, actor, {
      action: "test_ride.delete",
      entityType: "test_ride",
      entityId: before.slug,
      changes: diff(before, after),
    });
    return { ok: true as const };
  });
}

/** Every booking of the filters in scope, newest first, read in pages (TestRides.xls). */
export function* exportTestRides(scope: Scope, filters: TestRideFilters | LooseDateRange): Generator<TestRideRow> {
  const where = and(...baseConditions(scope), ...filterConditions(filters));
  const pageSize = EXPORT_PAGE_ROWS;
  for (let lastId = Number.MAX_SAFE_INTEGER; ;) {
    const page = joined(scope)
      .where(and(where, lt(testRides.id, lastId)))
      .orderBy(desc(testRides.id))
      .limit(pageSize)
      .all()
      .map(shape);
    if (!page.length) return;
    yield* page;
    lastId = page[page.length - 1].id;
    if (page.length < pageSize) return;
  }
}

export const TEST_RIDE_COLUMNS = [
  { header: "Model", value: (r: TestRideRow) => r.bike_model.title },
  { header: "Name", value: (r: TestRideRow) => r.name },
  { header: "Email", value: (r: TestRideRow) => r.email },
  { header: "Phone", value: (r: TestRideRow) => r.phone },
  { header: "State", value: (r: TestRideRow) => r.state },
  { header: "District", value: (r: TestRideRow) => r.district },
  { header: "City", value: (r: TestRideRow) => r.city },
  { header: "Branch", value: (r: TestRideRow) => r.branch.title },
  { header: "Type", value: (r: TestRideRow) => label("test_ride_type", r.type) },
  { header: "Registered", value: (r: TestRideRow) => displayDateTime(r.created_at) },
  { header: "Referrer", value: (r: TestRideRow) => r.referrer?.title ?? "" },
];

// ---------------------------------------------------------------- public booking ("Book a Ride")

/** The ordered branch list the booking form narrows (states, districts and cities come from it). */
export function bookingBranches(): BookingBranch[] {
  return listBranches().map(({ id, title, state, district, city }) => ({ id, title, state, district, city }));
}

/** Place and model checks against the branch list: the spec's error keys. */
function bookingReferenceErrors(value: TestRideInput): FieldErrors {
  const errors: FieldErrors = {};
  const all = bookingBranches();
  const cascade = narrowBooking(all, value);
  if (!cascade.selection.state) errors.state = [TR.stateUnknown];
  else if (!cascade.selection.district) errors.district = [TR.districtOutside];
  else if (!cascade.selection.city) errors.city = [TR.cityOutside];
  const branch = all.find((b) => b.id === value.branch_id);
  if (
    !branch ||
    (cascade.selection.city &&
      (branch.city !== value.city || branch.district !== value.district || branch.state !== value.state))
  ) {
    errors.branch_id = [TR.branchOutside];
  }
  if (!findActiveBikeModel(value.bike_model_id)) errors.bike_model_id = [TR.bikeModelUnknown];
  return errors;
}

/** The booking a form token already made, if any (a form sent twice). */
export function testRideByFormToken(token: string | null | undefined): TestRide | null {
  if (!token) return null;
  return db.select().from(testRides).where(eq(testRides.form_token, token)).get() ?? null;
}

export type BookingOptions = {
  /**
   * Limits the caller takes inside the booking's transaction (the client
   * address's point): null to go on, a Failure to refuse. The counters taken
   * are kept when the booking is refused.
   */
  charge?: (tx: Tx) => Failure | null;
  /** The share link the visitor came through (its cookie): the booking records that customer as referrer. */
  referral?: Referral | null;
};

/**
 * A public test ride or booking, in one transaction: the same form token
 * again gives the first booking (duplicate: true, nothing counted); then the
 * caller's limits are taken; the place must match the chosen branch and the
 * model must be active; the phone's limit is taken; then the record.
 */
export function bookTestRide(
  value: TestRideInput,
  options: BookingOptions = {},
): Result<{ testRide: TestRide; duplicate: boolean }> {
  return transact((tx) => {
    if (value.form_token) {
      const first = tx.select().from(testRides).where(eq(testRides.form_token, value.form_token)).get();
      if (first) return { ok: true as const, testRide: first, duplicate: true };
    }
    // Refusals below return (not throw): the counters taken so far are kept.
    const charged = options.charge?.(tx);
    if (charged) return charged;
    const errors = bookingReferenceErrors(value);
    if (Object.keys(errors).length) return fail.invalid(errors);
    const byPhone = take(tx, "test-ride-phone", value.phone);
    if (!byPhone.ok) return fail.rateLimited(byPhone.retryAfterSeconds);

    const [first_name, ...rest] = value.name.split(" ");
    const referred = referralFor(tx, options.referral, value.phone);
    const testRide = tx
      .insert(testRides)
      .values({
        slug: randomSlug(),
        type: value.type,
        first_name,
        last_name: rest.join(" "),
        name: value.name,
        email: value.email ?? null,
        phone: value.phone,
        bike_model_id: value.bike_model_id,
        branch_id: value.branch_id,
        state: value.state,
        district: value.district,
        city: value.city,
        utm_source: value.utm_source ?? referred?.utm_source ?? null,
        referrer_id: referred?.referrer_id ?? null,
        form_token: value.form_token ?? null,
        created_at: nowIso(),
      })
      .returning()
      .get();
    return { ok: true as const, testRide, duplicate: false };
  });
}
