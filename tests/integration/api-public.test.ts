// The public JSON API and the public pages' loaders and actions, called directly with Request
// objects against a real SQLite copy: shapes, status codes and the spec's error shape.
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { lastMessageTo } from "~/models/sms-outbox.server";
import { setSetting } from "~/models/settings.server";
import { issueToken } from "~/http/api.server";
import { action as enquiryAction, loader as enquiryIndexLoader } from "~/routes/api.v1.enquiry";
import { loader as enquiryLoader } from "~/routes/api.v1.enquiry.$id";
import { action as verifyAction } from "~/routes/api.v1.enquiry.$id.verify";
import { action as testRideAction, loader as testRideLoader } from "~/routes/api.v1.test-ride";
import { loader as videosLoader } from "~/routes/api.v1.videos";
import { loader as branchesLoader } from "~/routes/api.v1.branches";
import { loader as bikeModelLoader } from "~/routes/api.v1.bike-model";
import { loader as bikeModelsLoader } from "~/routes/api.v1.bike-models";
import { action as enquiryPageAction } from "~/routes/enquiry._index";
import { action as verifyPageAction, loader as verifyPageLoader } from "~/routes/enquiry.$slug.verify";
import { loader as drawPageLoader } from "~/routes/enquiry.$slug.draw";
import { action as bookPageAction } from "~/routes/book-a-ride";
import { narrowBooking } from "~/models/booking-cascade";
import { bookingBranches } from "~/models/test-ride.server";
import { loader as showroomsLoader } from "~/routes/showrooms";
import { loader as languageLoader } from "~/routes/language";
import { loader as outboxLoader } from "~/routes/admin.outbox";
import { ADDRESS_HEADER } from "~/http/auth.server";
import { LIMITS } from "~/utils/rate-limit.server";
import { makeBikeModel, makeBranch, makeUser, nextPhone } from "../fixtures";
import { context, thrown } from "../route-helpers";

const URL_BASE = "http://localhost";
let branch: ReturnType<typeof makeBranch>;
let model: ReturnType<typeof makeBikeModel>;
let citizen = 70_000_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions read JSON bodies of many shapes field by field
type Json = { data?: any; message?: string; errors?: Record<string, string[]> } & Record<string, any>;
const json = async (res: Response | unknown) => (await (res as Response).json()) as Json;

function multipart(fields: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}

const enquiryFields = (over: Record<string, string> = {}) => ({
  name: "Gita Poudel",
  address: "Lakeside Pokhara",
  phone: nextPhone(),
  citizenship_no: String(citizen++ * 3),
  nearest_branch_id: String(branch.id),
  ...over,
});

function post(path: string, body: FormData | object, headers: Record<string, string> = {}) {
  const init: RequestInit =
    body instanceof FormData
      ? { method: "POST", body, headers }
      : { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json", ...headers } };
  return new Request(URL_BASE + path, init);
}

const get = (path: string, headers: Record<string, string> = {}) => new Request(URL_BASE + path, { headers });

/** A loader or action result: a Response, or `data()` with its init. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions read JSON bodies of many shapes field by field
function unwrap(result: unknown): { data: any; status: number } {
  if (result instanceof Response) return { data: null, status: result.status };
  const r = result as { type?: string; data?: unknown; init?: { status?: number } };
  if (r?.type === "DataWithResponseInit") return { data: r.data, status: r.init?.status ?? 200 };
  return { data: result, status: 200 };
}

async function createViaApi(fields = enquiryFields()) {
  const res = (await enquiryAction({
    request: post("/api/v1/enquiry", multipart(fields)),
    context,
    params: {},
  })) as Response;
  expect(res.status).toBe(201);
  return { body: await json(res), phone: fields.phone };
}

const codeFor = (phone: string) => /\b(\d{6})\b/.exec(lastMessageTo(phone, "otp")?.text ?? "")![1];

beforeAll(() => {
  branch = makeBranch({
    title: "Pokhara Lakeside API",
    state: "Gandaki",
    district: "Kaski",
    city: "Pokhara",
    phone: "061-111111/9856000000",
  });
  model = makeBikeModel("API Model");
});

beforeEach(() => setSetting("registration_open", true));

describe("POST /api/v1/enquiry", () => {
  it("creates a public pre-registration: 201 with the public view, masked phone, no code", async () => {
    const { body, phone } = await createViaApi();
    expect(body.message).toMatch(/verify your phone/);
    expect(body.data).toMatchObject({ is_verified: false, verified: false, status: "unverified", prize: null });
    expect(body.data.slug).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(body.data.phone).toBe(`${phone.slice(0, 2)}XXXXXX${phone.slice(-2)}`);
    const text = JSON.stringify(body);
    expect(text).not.toContain(phone);
    expect(text).not.toContain(codeFor(phone));
    expect(text).not.toContain("name");
  });

  it("answers 422 with {message, errors} for invalid data", async () => {
    const res = (await enquiryAction({
      request: post("/api/v1/enquiry", multipart({ phone: "123" })),
      context,
      params: {},
    })) as Response;
    expect(res.status).toBe(422);
    const body = await json(res);
    expect(body.message).toBe("Please enter your full name.");
    expect(body.errors).toMatchObject({
      name: ["Please enter your full name."],
      phone: ["Please enter a valid mobile number (10 digits starting with 9)."],
      nearest_branch_id: ["Please choose your nearest showroom."],
    });
  });

  it("takes JSON too, refuses a taken phone (422) and gives the first record for the same form token (200)", async () => {
    const fields = { ...enquiryFields(), form_token: "api-token-0123456789abcdef" };
    const first = (await enquiryAction({ request: post("/api/v1/enquiry", fields), context, params: {} })) as Response;
    expect(first.status).toBe(201);
    const again = (await enquiryAction({ request: post("/api/v1/enquiry", fields), context, params: {} })) as Response;
    expect(again.status).toBe(200);
    expect((await json(again)).data.slug).toBe((await json(first)).data.slug);
    const taken = (await enquiryAction({
      request: post("/api/v1/enquiry", { ...fields, form_token: undefined }),
      context,
      params: {},
    })) as Response;
    expect(taken.status).toBe(422);
    const body = await json(taken);
    expect(body.errors!.phone[0]).toMatch(/already pre-registered/);
  });

  it("answers 403 with the spec's message while registration is closed", async () => {
    setSetting("registration_open", false);
    const res = (await enquiryAction({
      request: post("/api/v1/enquiry", multipart(enquiryFields())),
      context,
      params: {},
    })) as Response;
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual({
      message: "Registration is closed. Please contact the admin for more information.",
      errors: { form: ["Registration is closed. Please contact the admin for more information."] },
    });
  });

  it("answers 405 to GET", async () => {
    expect(((await enquiryIndexLoader()) as Response).status).toBe(405);
  });
});

describe("GET /api/v1/enquiry/{id} and POST /api/v1/enquiry/{id}/verify", () => {
  it("loads the public view by slug, 404 otherwise", async () => {
    const { body } = await createViaApi();
    const res = (await enquiryLoader({
      request: get(`/api/v1/enquiry/${body.data.slug}`),
      context,
      params: { id: body.data.slug },
    })) as Response;
    expect(res.status).toBe(200);
    // The public view, and how the code's SMS fares (queued: no worker runs here).
    expect((await json(res)).data).toEqual({ ...body.data, code_sms: "queued" });
    const missing = (await enquiryLoader({
      request: get("/api/v1/enquiry/nope"),
      context,
      params: { id: "nope" },
    })) as Response;
    expect(missing.status).toBe(404);
    expect(await json(missing)).toEqual({ message: "Pre-registration not found." });
  });

  it("OTP is required, Invalid OTP, then verifies and draws once", async () => {
    const { body, phone } = await createViaApi();
    const slug = body.data.slug as string;
    const verify = (code: unknown) =>
      verifyAction({
        request: post(`/api/v1/enquiry/${slug}/verify`, { code }),
        context,
        params: { id: slug },
      }) as Promise<Response>;
    const empty = await verify("");
    expect(empty.status).toBe(422);
    expect(await json(empty)).toEqual({
      message: "OTP is required",
      errors: { code: ["OTP is required"], otp: ["OTP is required"] },
    });
    const code = codeFor(phone);
    const wrong = await verify(String((Number(code) + 1) % 1_000_000).padStart(6, "0"));
    expect(wrong.status).toBe(422);
    expect((await json(wrong)).errors).toEqual({ code: ["Invalid OTP"], otp: ["Invalid OTP"] });

    const ok = await verify(code);
    expect(ok.status).toBe(200);
    const verified = await json(ok);
    expect(verified.data).toMatchObject({ verified: true, is_verified: true, status: "verified" });
    expect(verified.data.draw.amount).toBeGreaterThan(0);
    expect(verified.data.draw.total_prize).toBe(verified.data.draw.amount);
    expect(verified.data.prize).toBe(verified.data.draw.amount);

    const again = await json(await verify("whatever"));
    expect(again.data.draw.amount).toBe(verified.data.draw.amount);
    const notFound = (await verifyAction({
      request: post("/api/v1/enquiry/nope/verify", { code: "1" }),
      context,
      params: { id: "nope" },
    })) as Response;
    expect(notFound.status).toBe(404);
  });
});

describe("POST /api/v1/test-ride", () => {
  const ride = (over: Record<string, string> = {}) => ({
    name: "Eshan Karki",
    state: "Gandaki",
    district: "Kaski",
    city: "Pokhara",
    phone: nextPhone(),
    bike_model_id: String(model.id),
    branch_id: String(branch.id),
    utm_source: "api",
    ...over,
  });

  it("books publicly: 201 with the spec's thank-you message", async () => {
    const res = (await testRideAction({ request: post("/api/v1/test-ride", ride()), context, params: {} })) as Response;
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body.message).toBe("Thank You for Test Ride Booking.");
    expect(body.data).toMatchObject({ type: "TESTRIDE", city: "Pokhara", branch_id: branch.id, utm_source: "api" });
    expect(body.data.form_token).toBeUndefined();
  });

  it("answers 422 with the booking error fields", async () => {
    const res = (await testRideAction({
      request: post("/api/v1/test-ride", multipart({ type: "X" })),
      context,
      params: {},
    })) as Response;
    expect(res.status).toBe(422);
    const body = await json(res);
    expect(Object.keys(body.errors!).sort()).toEqual([
      "bike_model_id",
      "branch_id",
      "city",
      "district",
      "name",
      "phone",
      "state",
      "type",
    ]);
  });

  it("keeps the staff list behind a token", async () => {
    const res = await thrown(() => testRideLoader({ request: get("/api/v1/test-ride"), context, params: {} }));
    expect(res.status).toBe(401);
  });
});

describe("lookups", () => {
  it("GET /api/v1/videos groups winner videos by prize", async () => {
    db.insert(schema.videos)
      .values({ slug: "vid-api-1", title: "Ten lakh winner", url: "https://example.com/a", amount: 1_000_000 })
      .run();
    db.insert(schema.videos)
      .values({ slug: "vid-api-2", title: "Bad link", url: "javascript:alert(1)", amount: 50_000 })
      .run();
    const body = await json(await videosLoader());
    expect(Object.keys(body.data)).toEqual(["ten_lakhs", "one_lakh", "fifty_thousand"]);
    expect(body.data.ten_lakhs.map((v: { title: string }) => v.title)).toContain("Ten lakh winner");
    expect(JSON.stringify(body)).not.toContain("javascript:");
    expect(body.data.ten_lakhs[0]).not.toHaveProperty("citizenship_no");
  });

  it("GET /api/v1/branches lists branches with id and title", async () => {
    const body = await json(await branchesLoader());
    expect(body.data.find((b: { id: number }) => b.id === branch.id)).toMatchObject({
      id: branch.id,
      title: branch.title,
      district: "Kaski",
    });
  });

  it("GET /api/v1/bike-model?all and /api/v1/bike-models are public; paging needs a token", async () => {
    const all = await json(await bikeModelLoader({ request: get("/api/v1/bike-model?all"), context, params: {} }));
    expect(all.data.find((m: { id: number }) => m.id === model.id)).toMatchObject({
      id: model.id,
      title: "API Model",
      thumbnail_url: null,
    });
    const list = await json(await bikeModelsLoader());
    expect(list.data.map((m: { id: number }) => m.id)).toContain(model.id);
    expect(
      (await thrown(() => bikeModelLoader({ request: get("/api/v1/bike-model?draw=3"), context, params: {} }))).status,
    ).toBe(401);
    const admin = await makeUser("super-admin", null);
    const { token } = issueToken(admin.id, false);
    const paged = await json(
      await bikeModelLoader({
        request: get("/api/v1/bike-model?draw=3&start=0&length=10&search[value]=API", {
          Authorization: `Bearer ${token}`,
        }),
        context,
        params: {},
      }),
    );
    expect(paged).toMatchObject({ draw: 3, recordsFiltered: 1 });
    expect(paged.data[0].title).toBe("API Model");
  });
});

describe("public pages", () => {
  it("/enquiry: Save shows the phone confirmation, Save there creates and goes to verify", async () => {
    const fields = { ...enquiryFields(), form_token: "page-token-0123456789abcd" };
    const review = unwrap(
      await enquiryPageAction({
        request: post("/enquiry", multipart({ ...fields, intent: "review" })),
        context,
        params: {},
      }),
    );
    expect(review.data).toMatchObject({
      step: "confirm",
      result: { initialValue: { phone: fields.phone, form_token: fields.form_token } },
    });
    expect(review.data.result.initialValue.intent).toBeUndefined();
    const back = unwrap(
      await enquiryPageAction({
        request: post("/enquiry", multipart({ ...fields, intent: "back" })),
        context,
        params: {},
      }),
    );
    expect(back.data).toMatchObject({ step: "form", result: { initialValue: { name: fields.name } } });
    const saved = (await enquiryPageAction({
      request: post("/enquiry", multipart({ ...fields, intent: "save" })),
      context,
      params: {},
    })) as Response;
    expect(saved.status).toBe(302);
    const slug = /\/enquiry\/([^/]+)\/verify#otp$/.exec(saved.headers.get("Location")!)![1];

    const page = unwrap(await verifyPageLoader({ request: get(`/enquiry/${slug}/verify`), context, params: { slug } }));
    expect(page.data.phone).toMatch(/^\d{2}X{6}\d{2}$/);
    expect(JSON.stringify(page.data)).not.toContain(codeFor(fields.phone));
    const empty = unwrap(
      await verifyPageAction({
        request: post(`/enquiry/${slug}/verify`, multipart({ code: "" })),
        context,
        params: { slug },
      }),
    );
    // The page answers with the failure's one status (422, as the API does).
    expect(empty.status).toBe(422);
    expect(empty.data.result.error).toEqual({ code: ["OTP is required"] });
    const resend = unwrap(
      await verifyPageAction({
        request: post(`/enquiry/${slug}/verify`, multipart({ intent: "resend" })),
        context,
        params: { slug },
      }),
    );
    expect(resend.status).toBe(429);
    expect(resend.data.result.error[""][0]).toMatch(/^Please wait \d+ seconds/);
    const ok = (await verifyPageAction({
      request: post(`/enquiry/${slug}/verify`, multipart({ code: codeFor(fields.phone) })),
      context,
      params: { slug },
    })) as Response;
    expect(ok.headers.get("Location")).toBe(`/enquiry/${slug}/draw`);
    const draw = unwrap(await drawPageLoader({ request: get(`/enquiry/${slug}/draw`), context, params: { slug } }));
    expect(draw.data.amount).toBeGreaterThan(0);
    expect(draw.data.total).toBe(draw.data.amount);
    const verifiedPage = await thrown(() =>
      verifyPageLoader({ request: get(`/enquiry/${slug}/verify`), context, params: { slug } }),
    );
    expect(verifiedPage.headers.get("Location")).toBe(`/enquiry/${slug}/draw`);
  });

  it("/enquiry: the confirmation step is rate limited with the save's limit (429 and the page's message)", async () => {
    const address = { [ADDRESS_HEADER]: "10.66.0.1" };
    const statuses: number[] = [];
    let last: { data: any; status: number } | null = null; // eslint-disable-line @typescript-eslint/no-explicit-any -- the page's data
    for (let i = 0; i < 100; i++) {
      last = unwrap(
        await enquiryPageAction({
          request: post("/enquiry", multipart({ ...enquiryFields(), intent: "review" }), address),
          context,
          params: {},
        }),
      );
      statuses.push(last.status);
    }
    const allowed = LIMITS["enquiry-ip"].points;
    expect(statuses.slice(0, allowed).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(allowed).every((s) => s === 429)).toBe(true);
    expect(last!.data.step).toBe("form");
    expect(last!.data.result.error[""][0]).toMatch(/^Too many attempts\. Please try again in \d+ minute\(s\)\.$/);
    // The save from that address is refused too; another address goes on.
    const save = unwrap(
      await enquiryPageAction({
        request: post("/enquiry", multipart({ ...enquiryFields(), intent: "save" }), address),
        context,
        params: {},
      }),
    );
    expect(save.status).toBe(429);
    const other = unwrap(
      await enquiryPageAction({
        request: post("/enquiry", multipart({ ...enquiryFields(), intent: "review" }), {
          [ADDRESS_HEADER]: "10.66.0.2",
        }),
        context,
        params: {},
      }),
    );
    expect(other.status).toBe(200);
  });

  it("/book-a-ride narrows on Update choices and books on Submit", async () => {
    const refresh = unwrap(
      await bookPageAction({
        request: post(
          "/book-a-ride",
          multipart({ intent: "refresh", state: "Gandaki", district: "Kaski", city: "Pokhara", name: "Ram" }),
        ),
        context,
        params: {},
      }),
    );
    // The form comes back with its values (lastResult) and no errors; it narrows the lists from them.
    expect(refresh.data.result.initialValue).toMatchObject({
      state: "Gandaki",
      district: "Kaski",
      city: "Pokhara",
      name: "Ram",
    });
    expect(refresh.data.result.error).toEqual({});
    const cascade = narrowBooking(bookingBranches(), refresh.data.result.initialValue);
    expect(cascade.selection).toMatchObject({ state: "Gandaki", district: "Kaski", city: "Pokhara" });
    expect(cascade.selection.branch_id).toBe(cascade.branches[0].id);
    const booked = (await bookPageAction({
      request: post(
        "/book-a-ride",
        multipart({
          name: "Ram",
          state: "Gandaki",
          district: "Kaski",
          city: "Pokhara",
          branch_id: String(branch.id),
          phone: nextPhone(),
          bike_model_id: String(model.id),
        }),
      ),
      context,
      params: {},
    })) as Response;
    expect(booked.headers.get("Location")).toBe("/thankyou-for-test-ride-booking");
  });

  it("/showrooms filters by zone and location and splits phones on /", async () => {
    const res = unwrap(
      await showroomsLoader({ request: get("/showrooms?state=Gandaki&district=Kaski"), context, params: {} }),
    );
    const card = res.data.showrooms.find((s: { id: number }) => s.id === branch.id);
    expect(card.phones).toEqual([
      { label: "061-111111", href: "tel:061111111" },
      { label: "9856000000", href: "tel:9856000000" },
    ]);
    expect(res.data.showrooms.every((s: { state: string }) => s.state === "Gandaki")).toBe(true);
  });

  it("/language sets the cookie and goes back to a local page only", async () => {
    const res = (await languageLoader({
      request: get("/language?lang=ne&redirectTo=/winner-list"),
      context,
      params: {},
    })) as Response;
    expect(res.headers.get("Location")).toBe("/winner-list");
    expect(res.headers.get("Set-Cookie")).toMatch(/^lang=ne;/);
    const evil = (await languageLoader({
      request: get("/language?lang=en&redirectTo=//evil.example"),
      context,
      params: {},
    })) as Response;
    expect(evil.headers.get("Location")).toBe("/");
  });
});

describe("/admin/outbox", () => {
  it("needs send-sms and hides codes from staff who may not see them", async () => {
    const anonymous = await thrown(() => outboxLoader({ request: get("/admin/outbox"), context, params: {} }));
    expect(anonymous.headers.get("Location")).toMatch(/^\/login/);
    const { phone } = await createViaApi();
    const admin = await makeUser("super-admin", null);
    const { createUserSession } = await import("~/http/auth.server");
    const { getSessionUser } = await import("~/models/user.server");
    const login = await createUserSession(get("/login"), getSessionUser(admin.id)!, false, "/admin");
    const cookie = login.headers.get("Set-Cookie")!.split(";")[0];
    const page = unwrap(
      await outboxLoader({ request: get(`/admin/outbox?search=${phone}`, { Cookie: cookie }), context, params: {} }),
    );
    expect(page.data.recordsFiltered).toBe(1);
    expect(page.data.data[0].text).toContain(codeFor(phone));
    const rows = db.select().from(schema.smsMessages).where(eq(schema.smsMessages.to, phone)).all();
    expect(rows).toHaveLength(1);

    // A role with send-sms only: the outbox, without the codes.
    const role = db
      .insert(schema.roles)
      .values({ slug: `sms-only-${Date.now()}`, title: "SMS only" })
      .returning()
      .get();
    const perm = db.select().from(schema.permissions).where(eq(schema.permissions.name, "send-sms")).get()!;
    db.insert(schema.rolePermissions).values({ role_id: role.id, permission_id: perm.id }).run();
    const { createUser } = await import("~/models/user.server");
    const smsUser = await createUser({
      first_name: "Sms",
      email: `sms-${Date.now()}@example.test`,
      role_id: role.id,
      password: "secret-pass-1",
    });
    const smsLogin = await createUserSession(get("/login"), getSessionUser(smsUser.id)!, false, "/admin");
    const smsCookie = smsLogin.headers.get("Set-Cookie")!.split(";")[0];
    const masked = unwrap(
      await outboxLoader({ request: get(`/admin/outbox?search=${phone}`, { Cookie: smsCookie }), context, params: {} }),
    );
    expect(masked.data.data[0].text).not.toContain(codeFor(phone));
    expect(masked.data.data[0].text).toContain("••••••");

    const manager = await makeUser("branch-manager", branch.id);
    const managerLogin = await createUserSession(get("/login"), getSessionUser(manager.id)!, false, "/admin");
    const refused = await thrown(() =>
      outboxLoader({
        request: get("/admin/outbox", { Cookie: managerLogin.headers.get("Set-Cookie")!.split(";")[0] }),
        context,
        params: {},
      }),
    );
    expect(refused.headers.get("Location")).toBe("/admin");
  });
});
