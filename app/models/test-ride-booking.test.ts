// The public "Book a Ride" rules against a real SQLite copy: the state → district → city →
// branch cascade, validation with the spec's error fields (the shared schema), the booking in
// one transaction with its counters, double submit, and the route's guard: captcha (local fake
// siteverify server), honeypot and the client address's limit.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { testRideSchema, type TestRideInput } from "~/schemas/test-ride";
import { parseValue, type Body } from "~/http/body.server";
import { chargeAddress, checkCaptcha, screenPublicForm } from "~/http/public-guard.server";
import { makeBikeModel, makeBranch, nextPhone } from "../../tests/fixtures";
import { narrowBooking, type BookingBranch } from "./booking-cascade";
import { bookingBranches, bookTestRide, testRideByFormToken } from "./test-ride.server";

let model: ReturnType<typeof makeBikeModel>;
let ktm1: ReturnType<typeof makeBranch>;
let ktm2: ReturnType<typeof makeBranch>;
let pokhara: ReturnType<typeof makeBranch>;
const STATE = `Zone ${Date.now().toString(36)}`;

function form(values: Record<string, string | undefined>): Body {
  const f = new FormData();
  for (const [k, v] of Object.entries(values)) if (v !== undefined) f.append(k, v);
  return { kind: "form", form: f };
}

const fields = (over: Record<string, string | undefined> = {}) => ({
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

/** The values as the route hands them to the model: parsed by the shared schema. */
async function valid(over: Record<string, string | undefined> = {}): Promise<TestRideInput> {
  const parsed = await parseValue(form(fields(over)), testRideSchema);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

const counter = (name: string, key: string) =>
  db
    .select()
    .from(schema.rateLimitCounters)
    .where(and(eq(schema.rateLimitCounters.name, name), eq(schema.rateLimitCounters.key, key)))
    .get()?.points ?? 0;

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

describe("bookTestRide", () => {
  it("books a test ride (the default type) with first and last name and the utm_source", async () => {
    const result = bookTestRide(
      await valid({ type: undefined, name: "Bimala  Kumari Gurung", utm_source: "facebook" }),
    );
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
    const booking = bookTestRide(await valid({ type: "BOOKING", email: "" }));
    expect(booking.ok && booking.testRide.type).toBe("BOOKING");
    expect(booking.ok && booking.testRide.email).toBeNull();
  });

  it("the shared schema reports the spec's booking error fields", async () => {
    const result = await parseValue(form({ type: "RACE", email: "nope" }), testRideSchema);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe("invalid");
    expect(Object.keys(result.errors).sort()).toEqual(
      ["bike_model_id", "branch_id", "city", "district", "email", "name", "phone", "state", "type"].sort(),
    );
    expect(result.errors.district).toEqual(["Please choose a district."]);
  });

  it("keeps the place consistent with the branch", async () => {
    const wrongDistrict = bookTestRide(
      await valid({ district: "Kaski", city: "Pokhara", branch_id: String(pokhara.id) }),
    );
    expect(wrongDistrict).toMatchObject({
      ok: false,
      code: "invalid",
      errors: { district: ["Please choose a district of the chosen province."] },
    });
    const wrongBranch = bookTestRide(await valid({ branch_id: String(pokhara.id) }));
    expect(wrongBranch).toMatchObject({
      ok: false,
      errors: { branch_id: ["Please choose a branch in the chosen city."] },
    });
    expect(bookTestRide(await valid({ branch_id: String(ktm2.id) })).ok).toBe(true);
    const unknownModel = bookTestRide(await valid({ bike_model_id: "999999" }));
    expect(unknownModel).toMatchObject({
      ok: false,
      errors: { bike_model_id: ["Please choose a model from the list."] },
    });
  });

  it("creates one booking for a form sent twice", async () => {
    const token = `ride-${Date.now().toString(36)}-abcdefgh`;
    const input = await valid({ form_token: token });
    const [a, b] = await Promise.all([
      Promise.resolve().then(() => bookTestRide(input)),
      Promise.resolve().then(() => bookTestRide(input)),
    ]);
    const c = bookTestRide(input);
    expect(a.ok && b.ok && c.ok).toBe(true);
    expect(db.select().from(schema.testRides).where(eq(schema.testRides.form_token, token)).all()).toHaveLength(1);
    expect(c.ok && c.duplicate).toBe(true);
    expect(testRideByFormToken(token)?.id).toBe(a.ok ? a.testRide.id : -1);
    // The second submit costs the phone nothing.
    expect(counter("test-ride-phone", input.phone)).toBe(1);
  });

  it("limits bookings per phone", async () => {
    const phone = nextPhone();
    for (let i = 0; i < 5; i++) expect(bookTestRide(await valid({ phone })).ok).toBe(true);
    const sixth = bookTestRide(await valid({ phone }));
    expect(sixth).toMatchObject({ ok: false, code: "rate_limited" });
    expect(sixth.ok === false && sixth.retryAfterSeconds).toBeGreaterThan(0);
  });

  it("takes the record and its counters in one transaction: a failed write leaves no point behind", async () => {
    const address = `10.77.${Math.floor(Math.random() * 250)}.1`;
    const input = await valid();
    db.$client.exec(`create temp trigger refuse_booking before insert on test_rides
      when new.phone = '${input.phone}' begin select raise(abort, 'refused'); end`);
    try {
      expect(() => bookTestRide(input, { charge: chargeAddress("test-ride-ip", address) })).toThrow(/refused/);
    } finally {
      db.$client.exec("drop trigger refuse_booking");
    }
    expect(counter("test-ride-ip", address)).toBe(0);
    expect(counter("test-ride-phone", input.phone)).toBe(0);
    // The same booking goes through once the write can be made, and then counts.
    expect(bookTestRide(input, { charge: chargeAddress("test-ride-ip", address) }).ok).toBe(true);
    expect(counter("test-ride-ip", address)).toBe(1);
    expect(counter("test-ride-phone", input.phone)).toBe(1);
  });
});

describe("the route's guard", () => {
  it("turns a filled honeypot away", () => {
    expect(screenPublicForm(form(fields({ website: "x" })), "10.2.2.2", "test-ride-ip")).toMatchObject({
      ok: false,
      code: "invalid",
      errors: { form: ["Your form could not be accepted. Please try again."] },
    });
    expect(screenPublicForm(form(fields()), "10.2.2.2", "test-ride-ip")).toBeNull();
  });

  it("limits bookings per address: the point is taken with the booking, the guard refuses once over", async () => {
    const address = `10.88.${Math.floor(Math.random() * 250)}.9`;
    for (let i = 0; i < 20; i++) {
      expect(screenPublicForm(form(fields()), address, "test-ride-ip")).toBeNull();
      expect(bookTestRide(await valid(), { charge: chargeAddress("test-ride-ip", address) }).ok).toBe(true);
    }
    expect(screenPublicForm(form(fields()), address, "test-ride-ip")).toMatchObject({ code: "rate_limited" });
    const over = bookTestRide(await valid(), { charge: chargeAddress("test-ride-ip", address) });
    expect(over).toMatchObject({ ok: false, code: "rate_limited" });
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
      const body = form(fields({ "g-recaptcha-response": "t" }));
      expect(await checkCaptcha(body, "10.1.1.1")).toMatchObject({
        ok: false,
        code: "invalid",
        errors: { "g-recaptcha-response": ["Please verify that you are not a robot."] },
      });
      success = true;
      expect(await checkCaptcha(body, "10.1.1.1")).toBeNull();
    });
  });
});
