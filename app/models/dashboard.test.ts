// The dashboard figures against a hand count of seeded rows, on both sides of a Kathmandu midnight
// (2026-11-22 00:00 in Kathmandu is 2026-11-21T18:15:00Z), for head office and for a branch.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { randomSlug } from "~/utils/crypto.server";
import { setClock } from "~/utils/time";
import { makeBikeModel, makeBranch, makePreregistration } from "../../tests/fixtures";
import { formatChange } from "~/models/labels";
import { branchStats, dashboardStats, percentChange } from "./dashboard.server";

const BEFORE_MIDNIGHT = new Date("2026-11-21T18:10:00.000Z"); // 2026-11-21 23:55 Kathmandu
const AFTER_MIDNIGHT = new Date("2026-11-21T18:20:00.000Z"); // 2026-11-22 00:05 Kathmandu

let a: ReturnType<typeof makeBranch>;
let b: ReturnType<typeof makeBranch>;
let n = 0;

function registration(branchId: number, created_at: string, deleted = false) {
  const pre = makePreregistration({
    branch_id: branchId,
    is_verified: true,
    status: "purchased",
    purchased: true,
    created_at: "2026-11-01T00:00:00.000Z",
  });
  n++;
  db.insert(schema.registrations)
    .values({
      slug: randomSlug(),
      bill_no: `B${branchId}-${n}`,
      name: "Buyer",
      address: "Somewhere",
      citizenship_no: "1234",
      phone: pre.phone,
      bike_model_id: model.id,
      engine_no: `E${n}`,
      chasis_no: `C${n}`,
      registration_no: `R${n}`,
      branch_id: branchId,
      preregistration_id: pre.id,
      purchase_date: created_at.slice(0, 10),
      coupon_code: `TH-TEST-${n}`,
      created_at,
      deleted_at: deleted ? created_at : null,
    })
    .run();
}

function testRide(branchId: number, created_at: string) {
  db.insert(schema.testRides)
    .values({
      slug: randomSlug(),
      first_name: "T",
      name: "T",
      phone: "9800000000",
      bike_model_id: model.id,
      branch_id: branchId,
      state: "S",
      district: "D",
      city: "C",
      created_at,
    })
    .run();
}

let model: ReturnType<typeof makeBikeModel>;

beforeAll(() => {
  a = makeBranch({ title: "Dash A" });
  b = makeBranch({ title: "Dash B" });
  model = makeBikeModel();
  // Each registration below has its own pre-registration made on 2026-11-01 (counted in the totals only).
  // Registrations (Kathmandu day in the comment):
  registration(a.id, "2026-11-20T10:00:00.000Z"); // 11-20
  registration(a.id, "2026-11-21T06:00:00.000Z"); // 11-21
  registration(b.id, "2026-11-21T18:00:00.000Z"); // 11-21 23:45
  registration(a.id, "2026-11-21T18:30:00.000Z"); // 11-22 00:15
  registration(a.id, "2026-11-21T07:00:00.000Z", true); // 11-21, deleted: never counted
  // Pre-registrations made on the days around the midnight (besides the four above on 11-01):
  makePreregistration({ branch_id: a.id, created_at: "2026-11-20T12:00:00.000Z" }); // 11-20
  makePreregistration({ branch_id: a.id, created_at: "2026-11-21T01:00:00.000Z" }); // 11-21
  makePreregistration({ branch_id: null, nearest_branch_id: a.id, created_at: "2026-11-21T17:00:00.000Z" }); // 11-21, public, nearest A
  makePreregistration({ branch_id: b.id, created_at: "2026-11-21T18:14:59.000Z" }); // 11-21 23:59:59
  makePreregistration({ branch_id: a.id, created_at: "2026-11-21T18:15:00.000Z" }); // 11-22 00:00:00
  makePreregistration({
    branch_id: a.id,
    created_at: "2026-11-21T08:00:00.000Z",
    deleted_at: "2026-11-21T09:00:00.000Z",
  }); // deleted
  // Test rides:
  testRide(a.id, "2026-11-21T12:00:00.000Z"); // 11-21
  testRide(b.id, "2026-11-21T13:00:00.000Z"); // 11-21
  testRide(a.id, "2026-11-21T19:00:00.000Z"); // 11-22
});

afterEach(() => setClock(null));

describe("percentChange", () => {
  it("is (today - yesterday) / yesterday in percent, 2 decimals", () => {
    expect(percentChange(2, 1)).toBe(100);
    expect(percentChange(1, 3)).toBe(-66.67);
    expect(percentChange(4, 3)).toBe(33.33);
    expect(percentChange(0, 0)).toBe(0);
    expect(percentChange(3, 0)).toBeNull();
    expect(formatChange(33.33)).toBe("+33.33%");
    expect(formatChange(-50)).toBe("-50.00%");
    expect(formatChange(0)).toBe("0.00%");
    expect(formatChange(null)).toBe("—");
  });
});

describe("dashboardStats", () => {
  it("counts Kathmandu 'today' and 'yesterday' just before midnight (head office)", () => {
    setClock(() => BEFORE_MIDNIGHT);
    const s = dashboardStats({ branchId: null });
    // Hand count: registrations 4 active; today (11-21) 2, yesterday (11-20) 1.
    // Pre-registrations: 5 bought (one per registration, the deleted one's too) + 5 active = 10;
    // today 3 (01:00Z, 17:00Z, 18:14:59Z), yesterday 1.
    // Test rides: 3; today 2, yesterday 0.
    expect(s).toMatchObject({
      date: "2026-11-21",
      total: 4,
      sales_today: 2,
      sales_yesterday: 1,
      preregistrations: 10,
      preregistrations_today: 3,
      preregistrations_yesterday: 1,
      test_rides: 3,
      test_rides_today: 2,
      test_rides_yesterday: 0,
    });
    // Totals against their own size at the end of yesterday; daily sales today against yesterday.
    expect(s.changes).toEqual({ total: 100, preregistrations: 42.86, sales: 100, test_rides: 200 });
  });

  it("moves to the next day at Kathmandu midnight, not UTC midnight", () => {
    setClock(() => AFTER_MIDNIGHT);
    const s = dashboardStats({ branchId: null });
    // Today (11-22): registrations 1, pre-registrations 1, test rides 1; yesterday (11-21): 2, 3, 2.
    expect(s).toMatchObject({
      date: "2026-11-22",
      total: 4,
      sales_today: 1,
      sales_yesterday: 2,
      preregistrations_today: 1,
      preregistrations_yesterday: 3,
      test_rides_today: 1,
      test_rides_yesterday: 2,
    });
    // Totals: 4 against 3, 10 against 9, 3 against 2 at the end of yesterday; daily sales 1 against 2.
    expect(s.changes).toEqual({ total: 33.33, preregistrations: 11.11, sales: -50, test_rides: 50 });
  });

  it("counts only the branch's own records for a branch user", () => {
    setClock(() => BEFORE_MIDNIGHT);
    const s = dashboardStats({ branchId: a.id });
    // Branch A: registrations 3 active (11-20, 11-21, 11-22) of which today 1, yesterday 1.
    // Pre-registrations: 4 bought (for A's registrations, the deleted one's too) + 11-20, 11-21,
    // public-nearest-A, 11-22 = 8; today 2, yesterday 1.
    // Test rides: 2; today 1, yesterday 0.
    expect(s).toMatchObject({
      total: 3,
      sales_today: 1,
      sales_yesterday: 1,
      preregistrations: 8,
      preregistrations_today: 2,
      preregistrations_yesterday: 1,
      test_rides: 2,
      test_rides_today: 1,
      test_rides_yesterday: 0,
    });
    expect(s.changes).toEqual({ total: 50, preregistrations: 33.33, sales: 0, test_rides: 100 });
  });
});

describe("branchStats", () => {
  it("gives each branch its figures; a branch user sees its own only", () => {
    setClock(() => BEFORE_MIDNIGHT);
    const all = branchStats({ branchId: null });
    expect(all.find((r) => r.id === a.id)).toMatchObject({
      registrations_count: 3,
      sales_today: 1,
      sales_yesterday: 1,
      preregistrations_count: 8,
      test_rides_count: 2,
    });
    expect(all.find((r) => r.id === b.id)).toMatchObject({
      registrations_count: 1,
      sales_today: 1,
      sales_yesterday: 0,
      preregistrations_count: 2,
      test_rides_count: 1,
    });
    const mine = branchStats({ branchId: b.id });
    expect(mine.map((r) => r.id)).toEqual([b.id]);
  });
});
