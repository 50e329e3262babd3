/** Test rides and bookings: the back-office list, detail, delete and download, always inside the user's branch scope. */
import { and, count, desc, eq, gte, isNull, lt, or, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { db, schema } from "@db/index";
import { runTable, type TableParams } from "~/utils/datatable.server";
import { displayDateTime, kathmanduToUtc, nowIso } from "~/utils/time";
import { branchCondition, type Scope } from "./scope.server";

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
  const byKey = /^\d+$/.test(key) ? or(eq(testRides.slug, key), eq(testRides.id, Number(key))) : eq(testRides.slug, key);
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
  for (let lastId = Number.MAX_SAFE_INTEGER; ; ) {
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
