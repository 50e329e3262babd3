// Referrers on a real SQLite copy: the share link records its customer as referrer of a booking and a public
// pre-registration (never oneself, never a deleted or unknown code), the purchase takes it on; the report's
// figures are the database's, for the range (Kathmandu days, across a midnight) and the scope.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { loader as shareLoader } from "~/routes/r.$code";
import { publicPreregistrationSchema } from "~/schemas/preregistration";
import { referrerFiltersSchema } from "~/schemas/referrer";
import { testRideSchema } from "~/schemas/test-ride";
import { parseTableParams } from "~/utils/datatable.server";
import { referralOf } from "~/http/referral.server";
import { kathmanduBounds } from "~/utils/time";
import { makeBikeModel, makeBranch, makeUser, nextPhone } from "../../tests/fixtures";
import { makeRegistration, makeTestRide } from "../../tests/referral-fixtures";
import { createPreregistration } from "./preregistration.server";
import { exportReferrers, referrerReport, type ReferrerRow } from "./referrer.server";
import { createRegistration, prizeSmsText } from "./registration.server";
import { bookTestRide, listTestRides } from "./test-ride.server";

const { registrations: R, preregistrations: P } = schema;

let b1: ReturnType<typeof makeBranch>;
let b2: ReturnType<typeof makeBranch>;
let model: ReturnType<typeof makeBikeModel>;

const params = (q: Record<string, string> = {}) => parseTableParams(new URLSearchParams({ length: "100", ...q }));
const filters = (q: Record<string, string>) => referrerFiltersSchema.parse(q);

/** The report's three figures for one referrer, straight from the database, for Kathmandu days from..to. */
function dbCounts(id: number, from?: string, to?: string) {
  const b = kathmanduBounds(from, to);
  const range = (col: string) =>
    `${b.from ? ` and ${col} >= '${b.from}'` : ""}${b.to ? ` and ${col} < '${b.to}'` : ""}`;
  const one = (q: string) => db.$client.prepare(q).pluck().get(id) as number;
  return {
    referrals_count: one(
      `select count(*) from registrations where registration_id = ? and deleted_at is null${range("created_at")}`,
    ),
    test_rides_count: one(
      `select count(*) from test_rides where referrer_id = ? and deleted_at is null${range("created_at")}`,
    ),
    preregistrations_count: one(
      `select count(*) from preregistrations where referrer_id = ? and deleted_at is null${range("created_at")}`,
    ),
  };
}

const figures = (r: ReferrerRow) => ({
  referrals_count: r.referrals_count,
  test_rides_count: r.test_rides_count,
  preregistrations_count: r.preregistrations_count,
});

const booking = (branch: ReturnType<typeof makeBranch>, phone = nextPhone()) =>
  testRideSchema.parse({
    name: "Referred Rider",
    state: branch.state,
    district: branch.district,
    city: branch.city,
    phone,
    bike_model_id: model.id,
    branch_id: branch.id,
  });

beforeAll(() => {
  b1 = makeBranch({ state: "Lumbini", district: "Rupandehi", city: "Butwal" });
  b2 = makeBranch({ state: "Lumbini", district: "Rupandehi", city: "Butwal" });
  model = makeBikeModel();
});

describe("share links", () => {
  it("every registration gets an unguessable share code of its own", () => {
    const [x, y] = [makeRegistration(b1.id), makeRegistration(b1.id)];
    const code = (id: number) => db.select({ c: R.share_code }).from(R).where(eq(R.id, id)).get()!.c!;
    expect(code(x.id)).toMatch(/^[0-9a-f]{20}$/);
    expect(code(x.id)).not.toBe(code(y.id));
  });

  it("/r/{code} sets the referral cookie and goes to the landing page; another code sets nothing", async () => {
    const reg = makeRegistration(b1.id);
    const code = db.select({ c: R.share_code }).from(R).where(eq(R.id, reg.id)).get()!.c!;
    const res = (await shareLoader({
      request: new Request(`http://localhost/r/${code}?utm_source=whatsapp`),
      params: { code },
      context: { clientAddress: "127.0.0.1" },
    })) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/?utm_source=whatsapp");
    const cookie = res.headers.get("Set-Cookie")!;
    expect(cookie).toMatch(new RegExp(`^ref=${code}~whatsapp; Path=/; Max-Age=604800; HttpOnly; SameSite=Lax`));
    expect(referralOf(new Request("http://localhost/", { headers: { Cookie: cookie.split(";")[0] } }))).toEqual({
      code,
      source: "whatsapp",
    });
    const book = (await shareLoader({
      request: new Request(`http://localhost/r/${code}?to=book`),
      params: { code },
      context: { clientAddress: "127.0.0.1" },
    })) as Response;
    expect(book.headers.get("Location")).toBe("/book-a-ride?utm_source=referral");

    const unknown = (await shareLoader({
      request: new Request("http://localhost/r/0123456789abcdef0123"),
      params: { code: "0123456789abcdef0123" },
      context: { clientAddress: "127.0.0.1" },
    })) as Response;
    expect(unknown.headers.get("Location")).toBe("/");
    expect(unknown.headers.get("Set-Cookie")).toBeNull();
  });

  it("a booking through a link records the referrer and utm_source; oneself, a deleted or unknown code records none", () => {
    const referrer = makeRegistration(b1.id);
    const code = db.select({ c: R.share_code }).from(R).where(eq(R.id, referrer.id)).get()!.c!;
    const via = { code, source: "referral" };
    const booked = bookTestRide(booking(b1), { referral: via });
    expect(booked.ok && booked.testRide).toMatchObject({ referrer_id: referrer.id, utm_source: "referral" });
    // The page's own utm_source wins over the link's.
    const tagged = bookTestRide({ ...booking(b1), utm_source: "facebook" }, { referral: via });
    expect(tagged.ok && tagged.testRide).toMatchObject({ referrer_id: referrer.id, utm_source: "facebook" });
    const self = bookTestRide(booking(b1, referrer.phone), { referral: via });
    expect(self.ok && self.testRide).toMatchObject({ referrer_id: null, utm_source: null });
    const unknown = bookTestRide(booking(b1), { referral: { code: "f".repeat(20), source: "referral" } });
    expect(unknown.ok && unknown.testRide.referrer_id).toBeNull();
    db.update(R).set({ deleted_at: new Date().toISOString() }).where(eq(R.id, referrer.id)).run();
    const gone = bookTestRide(booking(b1), { referral: via });
    expect(gone.ok && gone.testRide.referrer_id).toBeNull();
  });

  it("a public pre-registration through a link records the referrer; its purchase is referred by them", async () => {
    const referrer = makeRegistration(b1.id);
    const code = db.select({ c: R.share_code }).from(R).where(eq(R.id, referrer.id)).get()!.c!;
    const created = await createPreregistration(
      { channel: "public", address: null, referral: { code, source: "referral" } },
      publicPreregistrationSchema.parse({
        name: "Friend Of Customer",
        address: "Butwal",
        phone: nextPhone(),
        citizenship_no: String(Date.now()),
        nearest_branch_id: String(b1.id),
        bike_model_id: String(model.id),
        source: "EXISTING CUSTOMER",
      }),
    );
    if (!created.ok) throw new Error(created.message);
    expect(created.preregistration).toMatchObject({ referrer_id: referrer.id, utm_source: "referral" });

    db.update(P).set({ is_verified: true, status: "verified" }).where(eq(P.id, created.preregistration.id)).run();
    const staff = await makeUser("branch-staff", b1.id);
    const bought = await createRegistration(
      { id: staff.id, email: staff.email, address: null, scope: { branchId: b1.id } },
      created.preregistration.slug,
      {
        bill_no: `R${Date.now()}`,
        name: "Friend Of Customer",
        address: "Butwal",
        citizenship_no: "1",
        bike_model_id: model.id,
        engine_no: `E${Date.now()}`,
        chasis_no: `C${Date.now()}`,
        registration_no: `V${Date.now()}`,
        payment_mode: "CASH",
        send_sms: false,
      },
    );
    if (!bought.ok) throw new Error(bought.message);
    expect(bought.registration).toMatchObject({ registration_id: referrer.id, referred_by: referrer.name });
    // The purchase SMS carries the buyer's own share link.
    const own = db.select({ c: R.share_code }).from(R).where(eq(R.id, bought.registration.id)).get()!.c!;
    expect(prizeSmsText(bought.registration)).toContain(`/r/${own}`);
  });
});

describe("the test-ride list's referrer", () => {
  it("is the customer's name within the viewer's reach, else only that a customer of another branch referred", () => {
    const referrer = makeRegistration(b1.id, { name: "Nearby Referrer" });
    const ride = makeTestRide(b2.id, { referrer_id: referrer.id, name: "Referred At Other Branch" });
    const row = (branchId: number | null) =>
      listTestRides({ branchId }, params({ search: "Referred At Other Branch" })).data.find((r) => r.id === ride.id);
    expect(row(null)?.referrer).toEqual({ title: "Nearby Referrer" });
    expect(row(b2.id)?.referrer).toEqual({ title: "A customer of another branch" });
    expect(row(b2.id)).not.toHaveProperty("referrer_id");
  });
});

describe("the referrer report", () => {
  it("its figures are the database's counts, for the range across a Kathmandu midnight and for the scope", () => {
    const a = makeRegistration(b1.id, { name: "Asha Referrer" });
    const b = makeRegistration(b2.id, { name: "Bikash Referrer" });
    makeRegistration(b1.id, { name: "Chandra Nobody" });
    // 2026-03-01 23:59 and 2026-03-02 00:01 in Kathmandu (UTC+05:45).
    const late = "2026-03-01T18:14:00.000Z";
    const early = "2026-03-01T18:16:00.000Z";
    makeRegistration(b1.id, { registration_id: a.id, created_at: late });
    makeRegistration(b2.id, { registration_id: a.id, created_at: early });
    makeRegistration(b1.id, { registration_id: a.id, created_at: early, deleted_at: early }); // deleted: not counted
    makeRegistration(b2.id, { registration_id: b.id, created_at: late });
    makeTestRide(b1.id, { referrer_id: a.id, created_at: late });
    makeTestRide(b2.id, { referrer_id: a.id, created_at: early, deleted_at: early }); // deleted: not counted
    makeTestRide(b2.id, { referrer_id: b.id, created_at: early });
    makeTestRide(b2.id, { referrer_id: b.id, created_at: "2026-02-01T06:00:00.000Z" });

    const ranges: [string | undefined, string | undefined][] = [
      [undefined, undefined],
      ["2026-03-01", "2026-03-01"],
      ["2026-03-02", undefined],
      [undefined, "2026-02-28"],
    ];
    for (const [from, to] of ranges) {
      const q: Record<string, string> = {};
      if (from) q.from = from.replaceAll("-", "/");
      if (to) q.to = to;
      const report = referrerReport({ branchId: null }, params(), filters(q));
      for (const row of report.data)
        expect(figures(row), `${row.title} ${from}..${to}`).toEqual(dbCounts(row.id, from, to));
      for (const who of [a, b]) {
        const c = dbCounts(who.id, from, to);
        const listed = report.data.some((r) => r.id === who.id);
        expect(listed).toBe(c.referrals_count + c.test_rides_count + c.preregistrations_count > 0);
      }
      expect(report.data.some((r) => r.title === "Chandra Nobody")).toBe(false);
    }
    const day = referrerReport({ branchId: null }, params(), filters({ from: "2026/03/01", to: "2026/03/01" }));
    expect(figures(day.data.find((r) => r.id === a.id)!)).toEqual({
      referrals_count: 1,
      test_rides_count: 1,
      preregistrations_count: 0,
    });

    // A branch user sees the referrers registered at their branch, with everything they referred.
    const branchView = referrerReport({ branchId: b1.id }, params(), {});
    expect(branchView.data.map((r) => r.id)).toContain(a.id);
    expect(branchView.data.map((r) => r.id)).not.toContain(b.id);
    expect(figures(branchView.data.find((r) => r.id === a.id)!)).toEqual(dbCounts(a.id));

    // Name search, the order by the most referrals, and the download's rows.
    const search = referrerReport({ branchId: null }, params({ search: "Bikash" }), filters({ search: "Bikash" }));
    expect(search.data.map((r) => r.id)).toEqual([b.id]);
    expect(search.recordsFiltered).toBe(1);
    const all = referrerReport({ branchId: null }, params(), {});
    const counts = all.data.map((r) => r.referrals_count);
    expect(counts).toEqual([...counts].sort((x, y) => y - x));
    expect([...exportReferrers({ branchId: null }, {})].map((r) => r.id).sort()).toEqual(
      all.data.map((r) => r.id).sort(),
    );
    expect(all.recordsTotal).toBe(all.data.length);
  });

  it("reads yyyy/MM/dd and yyyy-MM-dd; refuses other dates and a To before From", () => {
    expect(filters({ from: "2026/3/1", to: "2026-03-02" })).toMatchObject({ from: "2026-03-01", to: "2026-03-02" });
    const bad = referrerFiltersSchema.safeParse({ from: "2026/02/30" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toBe("Enter the date as yyyy/MM/dd.");
    const backwards = referrerFiltersSchema.safeParse({ from: "2026/03/02", to: "2026/03/01" });
    expect(backwards.error?.issues[0]).toMatchObject({
      path: ["to"],
      message: "The end date must be on or after the start date.",
    });
  });
});
