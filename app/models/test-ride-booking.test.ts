// The public "Book a Ride" rules against a real SQLite copy: the state → district → city →
// branch cascade, validation with the spec's error fields, double submit, captcha (local
// fake siteverify server), honeypot and rate limits.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { makeBikeModel, makeBranch, nextPhone } from "../../tests/fixtures";
import { bookingBranches, createTestRide, narrowBooking, type BookingBranch } from "./test-ride.server";

let model: ReturnType<typeof makeBikeModel>;
let ktm1: ReturnType<typeof makeBranch>;
let ktm2: ReturnType<typeof makeBranch>;
let pokhara: ReturnType<typeof makeBranch>;
const STATE = `Zone ${Date.now().toString(36)}`;

function form(values: Record<string, string | undefined>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(values)) if (v !== undefined) f.append(k, v);
  return f;
}

const valid = (over: Record<string, string | undefined> = {}) =>
  form({
    type: "TESTRIDE",
    name: "Bimala Gurung",
    state: STATE,
    district: "Kathmandu",
    city: "Kathmandu",
    email: "bimala@example.com",
    phone: nextPhone(),
    bike_model_id: String(model.id),
    branch_id: String(ktm1.id),
    ...over,
  });

beforeAll(() => {
  model = makeBikeModel();
  ktm1 = makeBranch({ title: "A Kathmandu One", state: STATE, district: "Kathmandu", city: "Kathmandu" });
  ktm2 = makeBranch({ title: "B Kathmandu Two", state: STATE, district: "Kathmandu", city: "Kathmandu" });
  pokhara = makeBranch({ title: "Lakeside", state: `${STATE} West`, district: "Kaski", city: "Pokhara" });
});

beforeEach(() => {
  delete process.env.RECAPTCHA_SITE_KEY;
  delete process.env.RECAPTCHA_SECRET;
});

describe("narrowBooking", () => {
  const all: BookingBranch[] = [
    { id: 1, title: "Kathmandu Central", state: "Bagmati", district: "Kathmandu", city: "Kathmandu" },
    { id: 2, title: "Patan Motors", state: "Bagmati", district: "Lalitpur", city: "Patan" },
    { id: 3, title: "Lagankhel Bikes", state: "Bagmati", district: "Lalitpur", city: "Lagankhel" },
    { id: 4, title: "Jawalakhel Riders", state: "Bagmati", district: "Lalitpur", city: "Patan" },
    { id: 5, title: "Lakeside", state: "Gandaki", district: "Kaski", city: "Pokhara" },
  ];

  it("offers everything before a choice", () => {
    const c = narrowBooking(all, {});
    expect(c.states).toEqual(["Bagmati", "Gandaki"]);
    expect(c.districts).toEqual(["Kaski", "Kathmandu", "Lalitpur"]);
    expect(c.branches).toHaveLength(5);
    expect(c.selection.branch_id).toBeNull();
  });

  it("narrows state → district → city → branch and selects the first branch", () => {
    expect(narrowBooking(all, { state: "Bagmati" }).districts).toEqual(["Kathmandu", "Lalitpur"]);
    expect(narrowBooking(all, { state: "Bagmati", district: "Lalitpur" }).cities).toEqual(["Lagankhel", "Patan"]);
    const c = narrowBooking(all, { state: "Bagmati", district: "Lalitpur", city: "Patan" });
    expect(c.branches.map((b) => b.id)).toEqual([2, 4]);
    expect(c.selection).toEqual({ state: "Bagmati", district: "Lalitpur", city: "Patan", branch_id: 2 });
    expect(
      narrowBooking(all, { state: "Bagmati", district: "Lalitpur", city: "Patan", branch_id: "4" }).selection.branch_id,
    ).toBe(4);
  });

  it("drops choices that no longer fit (a new state clears district, city and branch)", () => {
    const c = narrowBooking(all, { state: "Gandaki", district: "Lalitpur", city: "Patan", branch_id: 2 });
    expect(c.selection).toEqual({ state: "Gandaki", district: "", city: "", branch_id: null });
    expect(c.districts).toEqual(["Kaski"]);
    expect(narrowBooking(all, { state: "Nowhere" }).selection.state).toBe("");
  });

  it("reads the real branch list", () => {
    const list = bookingBranches();
    expect(list.find((b) => b.id === ktm1.id)).toEqual({
      id: ktm1.id,
      title: ktm1.title,
      state: STATE,
      district: "Kathmandu",
      city: "Kathmandu",
    });
  });
});

describe("createTestRide", () => {
  it("books a test ride (the default type) with first and last name and the utm_source", async () => {
    const input = valid({ type: undefined, name: "Bimala  Kumari Gurung", utm_source: "facebook" });
    const result = await createTestRide(input);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.testRide).toMatchObject({
      type: "TESTRIDE",
      name: "Bimala Kumari Gurung",
      first_name: "Bimala",
      last_name: "Kumari Gurung",
      branch_id: ktm1.id,
      bike_model_id: model.id,
      state: STATE,
      utm_source: "facebook",
    });
    const booking = await createTestRide(valid({ type: "BOOKING", email: "" }));
    expect(booking.ok && booking.testRide.type).toBe("BOOKING");
    expect(booking.ok && booking.testRide.email).toBeNull();
  });

  it("reports the spec's booking error fields", async () => {
    const result = await createTestRide(form({ type: "RACE", email: "nope" }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual(
      ["bike_model_id", "branch_id", "city", "district", "email", "name", "phone", "state", "type"].sort(),
    );
    expect(result.errors.district).toEqual(["Please choose a district."]);
  });

  it("keeps the place consistent with the branch", async () => {
    const wrongDistrict = await createTestRide(
      valid({ district: "Kaski", city: "Pokhara", branch_id: String(pokhara.id) }),
    );
    expect(wrongDistrict).toMatchObject({
      ok: false,
      errors: { district: ["Please choose a district of the chosen state."] },
    });
    const wrongBranch = await createTestRide(valid({ branch_id: String(pokhara.id) }));
    expect(wrongBranch).toMatchObject({
      ok: false,
      errors: { branch_id: ["Please choose a branch in the chosen city."] },
    });
    const otherInCity = await createTestRide(valid({ branch_id: String(ktm2.id) }));
    expect(otherInCity.ok).toBe(true);
    const unknownModel = await createTestRide(valid({ bike_model_id: "999999" }));
    expect(unknownModel).toMatchObject({
      ok: false,
      errors: { bike_model_id: ["Please choose a model from the list."] },
    });
  });

  it("creates one booking for a form sent twice", async () => {
    const token = `ride-${Date.now().toString(36)}-abcdefgh`;
    const input = valid({ form_token: token });
    const [a, b] = await Promise.all([createTestRide(input), createTestRide(input)]);
    const c = await createTestRide(input);
    expect(a.ok && b.ok && c.ok).toBe(true);
    expect(db.select().from(schema.testRides).where(eq(schema.testRides.form_token, token)).all()).toHaveLength(1);
    expect(c.ok && c.duplicate).toBe(true);
  });

  it("turns a filled honeypot away", async () => {
    expect(await createTestRide(valid({ website: "x" }))).toMatchObject({ ok: false, reason: "rejected" });
  });

  it("limits bookings per phone", async () => {
    const phone = nextPhone();
    for (let i = 0; i < 5; i++) expect((await createTestRide(valid({ phone }))).ok).toBe(true);
    const sixth = await createTestRide(valid({ phone }));
    expect(sixth).toMatchObject({ ok: false, reason: "rate_limited" });
  });

  describe("captcha", () => {
    let server: http.Server;
    let success = false;
    beforeAll(async () => {
      server = http.createServer((req, res) => {
        req.resume();
        req.on("end", () =>
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ success })),
        );
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      process.env.RECAPTCHA_VERIFY_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`;
    });
    afterAll(async () => {
      delete process.env.RECAPTCHA_VERIFY_URL;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it("shows a refused captcha under g-recaptcha-response", async () => {
      process.env.RECAPTCHA_SITE_KEY = "site";
      process.env.RECAPTCHA_SECRET = "secret";
      success = false;
      const refused = await createTestRide(valid({ "g-recaptcha-response": "t" }), { clientAddress: "10.1.1.1" });
      expect(refused).toMatchObject({
        ok: false,
        reason: "captcha",
        errors: { "g-recaptcha-response": ["Please verify that you are not a robot."] },
      });
      success = true;
      expect((await createTestRide(valid({ "g-recaptcha-response": "t" }), { clientAddress: "10.1.1.1" })).ok).toBe(
        true,
      );
    });
  });
});
