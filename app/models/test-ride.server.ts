/** Test rides and bookings: the back-office list, detail, delete and download, always inside the user's branch scope. */
import { and, count, desc, eq, gte, isNull, lt, or, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { db, schema } from "@db/index";
import { runTable, type TableParams } from "~/utils/datatable.server";
import { displayDateTime, kathmanduToUtc, nowIso } from "~/utils/time";
import { branchCondition, type Scope } from "./scope.server";
import { parseWithZod } from "@conform-to/zod/v4";
import { TEST_RIDE_MESSAGES as TR, testRideSchema, type TestRideInput } from "~/schemas/test-ride";
import { jsonToFormData } from "~/utils/api.server";
import { CAPTCHA_FIELD, honeypotTripped, verifyCaptcha } from "~/utils/captcha.server";
import { randomSlug } from "~/utils/crypto.server";
import { hit, tooManyMessage } from "~/utils/rate-limit.server";
import { findActiveBikeModel } from "./bike-model.server";
import { listBranches, type PublicBranch } from "./branch.server";

const { testRides, bikeModels, branches, registrations } = schema;
const referrer = alias(registrations, "referrer");

export type TestRideFilters = { from?: string | null; to?: string | null };

function filterConditions(f: TestRideFilters): (SQL | undefined)[] {
  return [
    f.from ? gte(testRides.created_at, kathmanduToUtc(f.from)) : undefined,
    f.to ? lt(testRides.created_at, kathmanduToUtc(f.to)) : undefined,
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
  referrer_name: referrer.name,
};

type Flat = { [K in keyof typeof selection]: unknown };

function shape(r: Flat) {
  const { bike_model_title, branch_title, referrer_name, ...rest } = r as Record<string, unknown>;
  return {
    ...(rest as {
      id: number;
      slug: string;
      type: "TESTRIDE" | "BOOKING";
      name: string;
      email: string | null;
      phone: string;
      state: string;
      district: string;
      city: string;
      created_at: string;
      branch_id: number;
      bike_model_id: number;
      utm_source: string | null;
    }),
    bike_model: { title: (bike_model_title as string) ?? "" },
    branch: { title: (branch_title as string) ?? "" },
    referrer: referrer_name ? { title: referrer_name as string } : null,
  };
}

export type TestRideRow = ReturnType<typeof shape>;

function joined() {
  return db
    .select(selection)
    .from(testRides)
    .leftJoin(bikeModels, eq(bikeModels.id, testRides.bike_model_id))
    .leftJoin(branches, eq(branches.id, testRides.branch_id))
    .leftJoin(referrer, eq(referrer.id, testRides.referrer_id));
}

export function listTestRides(scope: Scope, params: TableParams, filters: TestRideFilters) {
  return runTable(params, {
    orderable: { created_at: testRides.created_at, name: testRides.name, id: testRides.id },
    defaultOrder: { column: "id", dir: "desc" },
    base: baseConditions(scope),
    filters: filterConditions(filters),
    search: [testRides.name, testRides.phone, testRides.email],
    count: (where) => db.select({ n: count() }).from(testRides).where(where).get()?.n ?? 0,
    rows: (where, orderBy, limit, offset) =>
      joined()
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset)
        .all()
        .map(shape),
  });
}

/** One booking by slug or id, only inside the scope. */
export function getTestRide(scope: Scope, key: string): TestRideRow | null {
  const byKey = /^\d+$/.test(key)
    ? or(eq(testRides.slug, key), eq(testRides.id, Number(key)))
    : eq(testRides.slug, key);
  const row = joined()
    .where(and(byKey, ...baseConditions(scope)))
    .get();
  return row ? shape(row) : null;
}

export function deleteTestRide(scope: Scope, key: string): boolean {
  const ride = getTestRide(scope, key);
  if (!ride) return false;
  db.update(testRides).set({ deleted_at: nowIso() }).where(eq(testRides.id, ride.id)).run();
  return true;
}

export function* exportTestRides(scope: Scope, filters: TestRideFilters): Generator<TestRideRow> {
  const where = and(...baseConditions(scope), ...filterConditions(filters));
  const pageSize = 5000;
  for (let lastId = Number.MAX_SAFE_INTEGER; ;) {
    const page = joined()
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
  { header: "Type", value: (r: TestRideRow) => r.type },
  { header: "Registered", value: (r: TestRideRow) => displayDateTime(r.created_at) },
  { header: "Referrer", value: (r: TestRideRow) => r.referrer?.title ?? "" },
];

// ---------------------------------------------------------------- public booking ("Book a Ride")

export type BookingBranch = Pick<PublicBranch, "id" | "title" | "state" | "district" | "city">;

export type BookingSelection = {
  state?: string | null;
  district?: string | null;
  city?: string | null;
  branch_id?: number | string | null;
};

export type BookingCascade = {
  states: string[];
  districts: string[];
  cities: string[];
  branches: BookingBranch[];
  /** The selection cleaned of values outside the narrowed lists, with the first branch auto-selected once a city is chosen. */
  selection: { state: string; district: string; city: string; branch_id: number | null };
};

const sortedUnique = (values: string[]) => [...new Set(values)].sort((a, b) => a.localeCompare(b));

/** The ordered branch list the booking form narrows (states, districts and cities come from it). */
export function bookingBranches(): BookingBranch[] {
  return listBranches().map(({ id, title, state, district, city }) => ({ id, title, state, district, city }));
}

/**
 * The cascade of spec 001 §7: a state narrows the districts, a district the
 * cities, a city the branches (and selects the first). Without a choice a
 * level offers every value under the levels chosen above it.
 */
export function narrowBooking(all: BookingBranch[], sel: BookingSelection): BookingCascade {
  const states = sortedUnique(all.map((b) => b.state));
  const state = sel.state && states.includes(sel.state) ? sel.state : "";
  const inState = state ? all.filter((b) => b.state === state) : all;
  const districts = sortedUnique(inState.map((b) => b.district));
  const district = sel.district && districts.includes(sel.district) ? sel.district : "";
  const inDistrict = district ? inState.filter((b) => b.district === district) : inState;
  const cities = sortedUnique(inDistrict.map((b) => b.city));
  const city = sel.city && cities.includes(sel.city) ? sel.city : "";
  const branchList = city ? inDistrict.filter((b) => b.city === city) : inDistrict;
  const wanted = Number(sel.branch_id);
  const chosen = branchList.find((b) => b.id === wanted);
  const branch_id = chosen ? chosen.id : city && branchList.length ? branchList[0].id : null;
  return { states, districts, cities, branches: branchList, selection: { state, district, city, branch_id } };
}

export type BookingFailureReason = "invalid" | "captcha" | "rate_limited" | "rejected";

export type CreateTestRideResult =
  | { ok: true; testRide: TestRide; duplicate: boolean }
  | { ok: false; reason: BookingFailureReason; errors: Record<string, string[]>; retryAfterSeconds?: number };

type TestRide = typeof testRides.$inferSelect;

/** Place and model checks against the branch list: the spec's error keys (city errors also under city). */
function bookingReferenceErrors(value: TestRideInput): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
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

function rideByFormToken(token: string | null) {
  if (!token) return undefined;
  return db.select().from(testRides).where(eq(testRides.form_token, token)).get();
}

/**
 * A public test ride or booking: honeypot, captcha (when configured) and rate
 * limits per address and phone; the place must match the chosen branch. The
 * same form token again returns the first booking with duplicate: true.
 */
export async function createTestRide(
  input: unknown,
  ctx: { clientAddress?: string | null; formToken?: string | null } = {},
): Promise<CreateTestRideResult> {
  const form = input instanceof FormData ? input : jsonToFormData(input ?? {});
  const rawToken = ctx.formToken ?? form.get("form_token");
  const token = typeof rawToken === "string" && /^[A-Za-z0-9_-]{16,64}$/.test(rawToken.trim()) ? rawToken.trim() : null;
  const again = rideByFormToken(token);
  if (again) return { ok: true, testRide: again, duplicate: true };
  if (honeypotTripped(form))
    return { ok: false, reason: "rejected", errors: { form: ["Your form could not be accepted. Please try again."] } };

  if (ctx.clientAddress) {
    const res = await hit("test-ride-ip", ctx.clientAddress);
    if (!res.ok)
      return {
        ok: false,
        reason: "rate_limited",
        errors: { form: [tooManyMessage(res.retryAfterSeconds)] },
        retryAfterSeconds: res.retryAfterSeconds,
      };
  }
  const submission = parseWithZod(form, { schema: testRideSchema });
  if (submission.status !== "success") {
    const errors: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(submission.error ?? {})) if (v?.length) errors[k || "form"] = v;
    return { ok: false, reason: "invalid", errors };
  }
  const value = submission.value as TestRideInput;
  const refErrors = bookingReferenceErrors(value);
  if (Object.keys(refErrors).length) return { ok: false, reason: "invalid", errors: refErrors };

  const captcha = await verifyCaptcha(form.get(CAPTCHA_FIELD), ctx.clientAddress);
  if (!captcha.ok)
    return {
      ok: false,
      reason: "captcha",
      errors: { [CAPTCHA_FIELD]: [captcha.message ?? "Please verify that you are not a robot."] },
    };
  const byPhone = await hit("test-ride-phone", value.phone);
  if (!byPhone.ok)
    return {
      ok: false,
      reason: "rate_limited",
      errors: { form: [tooManyMessage(byPhone.retryAfterSeconds)] },
      retryAfterSeconds: byPhone.retryAfterSeconds,
    };

  const [first_name, ...rest] = value.name.split(" ");
  try {
    const testRide = db
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
        utm_source: value.utm_source ?? null,
        form_token: token,
        created_at: nowIso(),
      })
      .returning()
      .get();
    return { ok: true, testRide, duplicate: false };
  } catch (error) {
    const first =
      (error as { code?: string })?.code === "SQLITE_CONSTRAINT_UNIQUE" ? rideByFormToken(token) : undefined;
    if (first) return { ok: true, testRide: first, duplicate: true };
    throw error;
  }
}
