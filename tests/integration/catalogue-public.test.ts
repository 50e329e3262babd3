// What the catalogue's writes do to the public site, on the next request: a new branch and model show
// in the showrooms, the book-a-ride cascade and the pre-registration form; a closed branch and a retired
// model leave them (and are refused there), while the records that name them keep their names. Every
// write is audited in its own transaction; a refused write leaves no audit row.
import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import {
  closeBranch,
  createBranch,
  findActiveBranch,
  findShowrooms,
  getBranch,
  listBranchOptions,
  listBranches,
  reopenBranch,
  updateBranch,
} from "~/models/branch.server";
import {
  createBikeModel,
  findActiveBikeModel,
  listBikeModels,
  restoreBikeModel,
  retireBikeModel,
} from "~/models/bike-model.server";
import { createPreregistration } from "~/models/preregistration.server";
import { getPreregistrationBySlug } from "~/models/preregistration-read.server";
import { HEAD_OFFICE, type ScopedActor } from "~/models/scope.server";
import { bookingBranches, bookTestRide, getTestRide } from "~/models/test-ride.server";
import { loader as landing } from "~/routes/_index";
import { loader as bookARide } from "~/routes/book-a-ride";
import { loader as enquiry } from "~/routes/enquiry._index";
import { loader as showrooms } from "~/routes/showrooms";
import { branchSchema } from "~/schemas/branch";
import { bikeModelSchema } from "~/schemas/bike-model";
import { publicPreregistrationSchema } from "~/schemas/preregistration";
import { testRideSchema } from "~/schemas/test-ride";
import { nextPhone } from "../fixtures";
import { call, req } from "../route-helpers";

const actor: ScopedActor = { id: null, email: "head@example.test", address: "10.0.0.9", scope: HEAD_OFFICE };
// A district no seeded branch is in, so the showrooms there are this file's alone.
const ZONE = "Karnali";
const DISTRICT = "Jumla";

function ok<T extends object>(r: ({ ok: true } & T) | { ok: false; message: string }): T {
  if (!r.ok) throw new Error(r.message);
  return r;
}

type Option = { id: number; title: string };
/** The options the public pages offer right now, read through their loaders. */
async function publicOptions() {
  const book = await (await call(bookARide, req("GET", "/book-a-ride"))).json();
  const pre = await (await call(enquiry, req("GET", "/enquiry"))).json();
  const rooms = await (await call(showrooms, req("GET", `/showrooms?state=${ZONE}&district=${DISTRICT}`))).json();
  const home = await (await call(landing, req("GET", "/"))).json();
  return {
    bookingBranches: (book.allBranches as Option[]).map((b) => b.title),
    bookingStates: [...new Set((book.allBranches as { state: string }[]).map((b) => b.state))],
    bookingModels: (book.models as Option[]).map((m) => m.title),
    nearestShowrooms: (pre.branches as Option[]).map((b) => b.title),
    preModels: (pre.models as Option[]).map((m) => m.title),
    showrooms: (rooms.showrooms as Option[]).map((b) => b.title),
    landingModels: (home.bikes as Option[]).map((m) => m.title),
  };
}

let branch: ReturnType<typeof ok<{ branch: typeof schema.branches.$inferSelect }>>["branch"];
let model: ReturnType<typeof ok<{ bikeModel: typeof schema.bikeModels.$inferSelect }>>["bikeModel"];

beforeAll(() => {
  branch = ok(
    createBranch(
      actor,
      branchSchema.parse({ title: "Fresh Showroom", state: ZONE, district: DISTRICT, city: "New City" }),
    ),
  ).branch;
  model = ok(createBikeModel(actor, bikeModelSchema.parse({ title: "Fresh Model 180" }))).bikeModel;
});

describe("a new branch and bike model", () => {
  it("show on the public showrooms, book-a-ride cascade and pre-registration form on the next request", async () => {
    const o = await publicOptions();
    expect(o.bookingBranches).toContain("Fresh Showroom");
    expect(o.bookingStates).toContain(ZONE);
    expect(o.nearestShowrooms).toContain("Fresh Showroom");
    expect(o.showrooms).toEqual(["Fresh Showroom"]);
    expect(o.bookingModels).toContain("Fresh Model 180");
    expect(o.preModels).toContain("Fresh Model 180");
    expect(o.landingModels).toContain("Fresh Model 180");
  });

  it("an edit shows at once too", async () => {
    ok(
      updateBranch(
        actor,
        branch.slug,
        branchSchema.parse({ title: "Fresh Showroom", state: ZONE, district: DISTRICT, city: "Renamed City" }),
      ),
    );
    expect(bookingBranches().find((b) => b.id === branch.id)?.city).toBe("Renamed City");
  });
});

describe("a closed branch and a retired model", () => {
  let rideSlug: string;
  let preSlug: string;

  beforeAll(async () => {
    const ride = bookTestRide(
      testRideSchema.parse({
        type: "TESTRIDE",
        name: "Old Customer",
        phone: nextPhone(),
        state: ZONE,
        district: DISTRICT,
        city: "Renamed City",
        branch_id: String(branch.id),
        bike_model_id: String(model.id),
      }),
    );
    if (!ride.ok) throw new Error(JSON.stringify(ride.errors));
    rideSlug = ride.testRide.slug;
    const pre = await createPreregistration(
      { channel: "public", address: "10.9.9.9" },
      publicPreregistrationSchema.parse({
        name: "Old Visitor",
        address: "Somewhere",
        phone: nextPhone(),
        citizenship_no: "123456789",
        nearest_branch_id: String(branch.id),
        bike_model_id: String(model.id),
      }),
    );
    if (!pre.ok) throw new Error(JSON.stringify(pre));
    preSlug = pre.preregistration.slug;
    ok(closeBranch(actor, branch.slug));
    ok(retireBikeModel(actor, model.slug));
  });

  it("leave every public list at once", async () => {
    const o = await publicOptions();
    expect(o.bookingBranches).not.toContain("Fresh Showroom");
    expect(o.bookingStates).not.toContain(ZONE);
    expect(o.nearestShowrooms).not.toContain("Fresh Showroom");
    expect(o.showrooms).toEqual([]);
    expect(o.bookingModels).not.toContain("Fresh Model 180");
    expect(o.preModels).not.toContain("Fresh Model 180");
    expect(o.landingModels).not.toContain("Fresh Model 180");
    expect(listBranches().some((b) => b.id === branch.id)).toBe(false);
    expect(findShowrooms().showrooms.some((b) => b.id === branch.id)).toBe(false);
    expect(findActiveBranch(branch.id)).toBeNull();
    expect(listBikeModels().some((m) => m.id === model.id)).toBe(false);
    expect(findActiveBikeModel(model.id)).toBeNull();
    // A list filter over past records may still offer the closed branch.
    expect(listBranchOptions({ includeClosed: true }).some((b) => b.id === branch.id)).toBe(true);
    expect(listBranchOptions().some((b) => b.id === branch.id)).toBe(false);
    // An edit form keeps the record's own branch and model in its selects.
    expect(listBranchOptions({ keep: branch.id }).some((b) => b.id === branch.id)).toBe(true);
    expect(listBikeModels({ keep: model.id }).some((m) => m.id === model.id)).toBe(true);
  });

  it("are refused by a booking that still names them", async () => {
    const ride = bookTestRide(
      testRideSchema.parse({
        type: "TESTRIDE",
        name: "Late Visitor",
        phone: nextPhone(),
        state: ZONE,
        district: DISTRICT,
        city: "Renamed City",
        branch_id: String(branch.id),
        bike_model_id: String(model.id),
      }),
    );
    expect(ride).toMatchObject({
      ok: false,
      errors: expect.objectContaining({
        state: expect.any(Array),
        branch_id: expect.any(Array),
        bike_model_id: expect.any(Array),
      }),
    });
  });

  // Known gap, outside the catalogue: the pre-registration model's own reference check
  // (referenceErrors in app/models/preregistration.server.ts) reads deleted_at only, so a stale form
  // naming a closed showroom or a retired model is still accepted there. The form no longer offers them
  // (see above); this test turns green, and must then lose its `.fails`, once that check reads
  // findActiveBranch / findActiveBikeModel.
  it("are refused by a pre-registration that still names them", async () => {
    const pre = await createPreregistration(
      { channel: "public", address: "10.9.9.9" },
      publicPreregistrationSchema.parse({
        name: "Late Visitor",
        address: "Somewhere",
        phone: nextPhone(),
        citizenship_no: "987654321",
        nearest_branch_id: String(branch.id),
        bike_model_id: String(model.id),
      }),
    );
    expect(pre).toMatchObject({
      ok: false,
      errors: expect.objectContaining({ nearest_branch_id: expect.any(Array), bike_model_id: expect.any(Array) }),
    });
  });

  it("keep their names on the records that name them", () => {
    const ride = getTestRide(HEAD_OFFICE, rideSlug)!;
    expect(ride.branch.title).toBe("Fresh Showroom");
    expect(ride.bike_model.title).toBe("Fresh Model 180");
    const pre = getPreregistrationBySlug(preSlug, HEAD_OFFICE)!;
    expect(pre.nearest_branch?.title).toBe("Fresh Showroom");
    expect(pre.bike_model?.title).toBe("Fresh Model 180");
    const usage = getBranch(HEAD_OFFICE, branch.slug)!.usage;
    expect(usage.test_rides).toBe(1);
    expect(usage.preregistrations).toBeGreaterThanOrEqual(1);
  });

  it("come back when reopened and put back on sale", async () => {
    ok(reopenBranch(actor, branch.slug));
    ok(restoreBikeModel(actor, model.slug));
    const o = await publicOptions();
    expect(o.bookingBranches).toContain("Fresh Showroom");
    expect(o.preModels).toContain("Fresh Model 180");
  });
});

describe("the audit trail of catalogue writes", () => {
  const trail = (entity: string, id: number) =>
    db
      .select()
      .from(schema.auditLog)
      .all()
      .filter((r) => r.entity_type === entity && r.entity_id === String(id));

  it("every write has its row with the actor and what changed", () => {
    const rows = trail("branch", branch.id);
    expect(rows.map((r) => r.action)).toEqual(["branch.create", "branch.update", "branch.close", "branch.reopen"]);
    expect(rows[0]).toMatchObject({ user_email: "head@example.test", address: "10.0.0.9" });
    expect(JSON.parse(rows[1].changes)).toEqual({ city: { before: "New City", after: "Renamed City" } });
    expect(trail("bike_model", model.id).map((r) => r.action)).toEqual([
      "bike_model.create",
      "bike_model.retire",
      "bike_model.restore",
    ]);
  });

  it("a refused write changes nothing and leaves no row", () => {
    const before = db.select({ n: count() }).from(schema.auditLog).get()!.n;
    const dup = createBranch(
      actor,
      branchSchema.parse({ title: "FRESH showroom", state: ZONE, district: "Dolpa", city: "C" }),
    );
    expect(dup.ok).toBe(false);
    const branchUser: ScopedActor = { ...actor, scope: { branchId: branch.id } };
    expect(closeBranch(branchUser, branch.slug)).toMatchObject({ ok: false, code: "forbidden" });
    expect(db.select({ n: count() }).from(schema.auditLog).get()!.n).toBe(before);
    expect(db.select().from(schema.branches).where(eq(schema.branches.id, branch.id)).get()?.closed_at).toBeNull();
  });
});
