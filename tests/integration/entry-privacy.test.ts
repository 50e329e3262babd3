// A stranger must not reach another person's entry. Through the route modules, against a real SQLite
// copy: the public form and POST /api/v1/enquiry answer a taken phone or a pending purchase with the
// message alone (no slug in the body or the headers); the owner of a taken phone gets back in with a
// code sent to the stored phone (page and API), and the answers do not tell whether a phone is
// registered; pages and the API reached by a slug show the entry's details only to the browser that
// created or proved it; the counter and the staff API keep the spec's View link.
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { setSetting } from "~/models/settings.server";
import { lastMessageTo } from "~/models/sms-outbox.server";
import { action as enquiryApi } from "~/routes/api.v1.enquiry";
import { loader as enquiryOneApi } from "~/routes/api.v1.enquiry.$id";
import { action as enquiryVerifyApi } from "~/routes/api.v1.enquiry.$id.verify";
import { action as continueApi } from "~/routes/api.v1.enquiry.continue";
import { action as continueVerifyApi } from "~/routes/api.v1.enquiry.continue.verify";
import { action as preCreateApi } from "~/routes/api.v1.preregistration";
import { action as enquiryPage } from "~/routes/enquiry._index";
import { action as continuePage } from "~/routes/enquiry.continue";
import { action as verifyPageAction, loader as verifyPage } from "~/routes/enquiry.$slug.verify";
import { loader as drawPage } from "~/routes/enquiry.$slug.draw";
import { issueToken } from "~/http/api.server";
import { ADDRESS_HEADER } from "~/http/auth.server";
import { makeBranch, makePreregistration, makeUser, nextPhone } from "../fixtures";
import { maskCitizenship } from "~/utils/citizenship";
import { context } from "../route-helpers";

const BASE = "http://localhost";
let branch: ReturnType<typeof makeBranch>;
let citizen = 81_000_000;
let addressSeq = 0;

/** Each call from its own address, so the address limits never interfere. */
const fresh = () => ({ [ADDRESS_HEADER]: `10.91.${Math.floor(++addressSeq / 250)}.${addressSeq % 250}` });

const fields = (over: Record<string, string> = {}) => ({
  name: "Maya Gurung",
  address: "Pulchowk Lalitpur",
  phone: nextPhone(),
  citizenship_no: String(citizen++ * 7),
  nearest_branch_id: String(branch.id),
  ...over,
});

function multipart(values: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(values)) form.append(k, v);
  return form;
}

function post(path: string, body: FormData | object, headers: Record<string, string> = {}) {
  return new Request(BASE + path, {
    method: "POST",
    body: body instanceof FormData ? body : JSON.stringify(body),
    headers: body instanceof FormData ? headers : { "Content-Type": "application/json", ...headers },
  });
}

const get = (path: string, headers: Record<string, string> = {}) => new Request(BASE + path, { headers });

type Answer = { status: number; data: unknown; headers: Headers; text: string };

/** A loader's or action's answer, returned or thrown, Response or data(): status, data, headers, and all of it as text. */
async function answer(p: Promise<unknown> | unknown): Promise<Answer> {
  let out: unknown;
  try {
    out = await p;
  } catch (e) {
    if (!(e instanceof Response)) throw e;
    out = e;
  }
  if (out instanceof Response) {
    const body = await out.text();
    let data: unknown = body;
    try {
      data = JSON.parse(body);
    } catch {
      // not JSON
    }
    const headers = new Headers(out.headers);
    return { status: out.status, data, headers, text: body + JSON.stringify([...headers]) };
  }
  const r = out as { type?: string; data?: unknown; init?: { status?: number; headers?: HeadersInit } };
  if (r?.type === "DataWithResponseInit") {
    const headers = new Headers(r.init?.headers);
    return {
      status: r.init?.status ?? 200,
      data: r.data,
      headers,
      text: JSON.stringify(r.data) + JSON.stringify([...headers]),
    };
  }
  return { status: 200, data: out, headers: new Headers(), text: JSON.stringify(out) };
}

/** The cookie a browser would send back after this answer. */
const cookieOf = (a: Answer) => (a.headers.get("Set-Cookie") ?? "").split(";")[0];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions read bodies of many shapes
const body = (a: Answer) => a.data as any;

async function createThroughApi(values = fields()) {
  const created = await answer(
    enquiryApi({ request: post("/api/v1/enquiry", multipart(values), fresh()), context, params: {} }),
  );
  expect(created.status).toBe(201);
  return { slug: body(created).data.slug as string, cookie: cookieOf(created), values };
}

const otpOf = (phone: string) => /\b(\d{6})\b/.exec(lastMessageTo(phone, "otp")?.text ?? "")![1];

function verified(values = fields()) {
  return makePreregistration({
    phone: values.phone,
    citizenship_no: values.citizenship_no,
    name: values.name,
    address: values.address,
    is_verified: true,
    status: "verified",
    prize: 6000,
    shared: true,
  });
}

beforeAll(() => {
  branch = makeBranch({ title: "Privacy Branch" });
});

beforeEach(() => setSetting("registration_open", true));

describe("public lookups reveal nothing of another entry", () => {
  it("POST /api/v1/enquiry: a taken phone and a pending purchase get the message alone, no slug in body or headers", async () => {
    const other = verified();
    const taken = await answer(
      enquiryApi({
        request: post("/api/v1/enquiry", fields({ phone: other.phone }), fresh()),
        context,
        params: {},
      }),
    );
    expect(taken.status).toBe(422);
    expect(taken.data).toEqual({
      message: "This phone number is already pre-registered.",
      errors: { phone: ["This phone number is already pre-registered."] },
    });
    expect(taken.text).not.toContain(other.slug);
    expect(taken.headers.get("Set-Cookie")).toBeNull();

    const pending = await answer(
      enquiryApi({
        request: post("/api/v1/enquiry", multipart(fields({ citizenship_no: other.citizenship_no })), fresh()),
        context,
        params: {},
      }),
    );
    expect(pending.status).toBe(422);
    expect(pending.data).toEqual({
      message: "This citizenship/pan has pending purchase.",
      errors: { citizenship_no: ["This citizenship/pan has pending purchase."] },
    });
    expect(pending.text).not.toContain(other.slug);
    expect(pending.headers.get("Set-Cookie")).toBeNull();
  });

  it("an unverified holder of the phone is not named either (the API and the page)", async () => {
    const first = await createThroughApi();
    const again = await answer(
      enquiryApi({
        request: post("/api/v1/enquiry", fields({ phone: first.values.phone }), fresh()),
        context,
        params: {},
      }),
    );
    expect(body(again).errors).toEqual({ phone: ["This phone number is already pre-registered."] });
    expect(again.text).not.toContain(first.slug);

    for (const intent of ["review", "save"]) {
      const page = await answer(
        enquiryPage({
          request: post("/enquiry", multipart({ ...fields({ phone: first.values.phone }), intent }), fresh()),
          context,
          params: {},
        }),
      );
      expect(page.status).toBe(422);
      expect(body(page).result.error.phone).toEqual(["This phone number is already pre-registered."]);
      expect(page.text).not.toContain(first.slug);
      expect(page.headers.get("Set-Cookie")).toBeNull();
    }
  });

  it("/enquiry: a citizenship/PAN with a pending purchase shows the message alone (review and save)", async () => {
    const other = verified();
    for (const intent of ["review", "save"]) {
      const page = await answer(
        enquiryPage({
          request: post(
            "/enquiry",
            multipart({ ...fields({ citizenship_no: other.citizenship_no }), intent }),
            fresh(),
          ),
          context,
          params: {},
        }),
      );
      expect(page.status).toBe(422);
      expect(body(page).result.error.citizenship_no).toEqual(["This citizenship/pan has pending purchase."]);
      expect(page.text).not.toContain(other.slug);
    }
  });

  it("the staff API keeps the spec's View link (the second element of the error array)", async () => {
    const staff = await makeUser("branch-staff", branch.id);
    const { token } = issueToken(staff.id, false);
    const pending = makePreregistration({ branch_id: branch.id, is_verified: true, status: "verified" });
    const res = await answer(
      preCreateApi({
        request: post("/api/v1/preregistration", fields({ citizenship_no: pending.citizenship_no }), {
          Authorization: `Bearer ${token}`,
        }),
        context,
        params: {},
      }),
    );
    expect(res.status).toBe(422);
    expect(body(res).errors.citizenship_no).toEqual(["This citizenship/pan has pending purchase.", pending.slug]);
  });
});

describe("the owner of a taken phone gets back in with a code", () => {
  it("API: a code to the stored phone, the same answer for a phone without an entry, the entry only after the right code", async () => {
    const mine = await createThroughApi();
    const phone = mine.values.phone;
    const unknown = nextPhone();

    const send = (p: string) =>
      answer(continueApi({ request: post("/api/v1/enquiry/continue", { phone: p }, fresh()), context, params: {} }));
    const sent = await send(phone);
    const none = await send(unknown);
    expect(sent.status).toBe(200);
    expect(none.status).toBe(200);
    expect(body(sent).message).toBe(
      "If this phone number is pre-registered, a 6-digit code has been sent to it by SMS.",
    );
    expect(body(none).message).toBe(body(sent).message);
    expect(Object.keys(body(none).data)).toEqual(Object.keys(body(sent).data));
    expect(body(sent).data.phone).toBe(`${phone.slice(0, 2)}XXXXXX${phone.slice(-2)}`);
    for (const a of [sent, none]) {
      expect(a.text).not.toContain(mine.slug);
      expect(a.text).not.toContain("Maya");
    }
    expect(lastMessageTo(unknown)).toBeNull();
    const sms = lastMessageTo(phone, "otp")!;
    expect(sms.to).toBe(phone);
    expect(sms.text).toMatch(/open your pre-registration/);
    const code = /\b(\d{6})\b/.exec(sms.text)![1];

    const check = (p: string, c: string) =>
      answer(
        continueVerifyApi({
          request: post("/api/v1/enquiry/continue/verify", { phone: p, code: c }, fresh()),
          context,
          params: {},
        }),
      );
    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    for (const miss of [await check(phone, wrongCode), await check(unknown, code)]) {
      expect(miss.status).toBe(422);
      expect(miss.data).toEqual({ message: "Invalid OTP", errors: { code: ["Invalid OTP"], otp: ["Invalid OTP"] } });
      expect(miss.text).not.toContain(mine.slug);
      expect(miss.headers.get("Set-Cookie")).toBeNull();
    }

    const opened = await check(phone, code);
    expect(opened.status).toBe(200);
    expect(body(opened).data).toMatchObject({
      slug: mine.slug,
      name: "Maya Gurung",
      citizenship_no: maskCitizenship(mine.values.citizenship_no),
      is_verified: true,
    });
    expect(opened.text).not.toContain(phone);
    const cookie = cookieOf(opened);
    expect(cookie).toMatch(/^entries=/);

    // The cookie opens the details; a fresh browser gets the masked phone and the prize only.
    const owner = await answer(
      enquiryOneApi({
        request: get(`/api/v1/enquiry/${mine.slug}`, { Cookie: cookie }),
        context,
        params: { id: mine.slug },
      }),
    );
    expect(body(owner).data).toMatchObject({ name: "Maya Gurung", address: "Pulchowk Lalitpur" });
    const stranger = await answer(
      enquiryOneApi({ request: get(`/api/v1/enquiry/${mine.slug}`), context, params: { id: mine.slug } }),
    );
    expect(Object.keys(body(stranger).data).sort()).toEqual(
      [
        // How the code's SMS fares (decision 8): a status, nothing of the code.
        "code_sms",
        "created_at",
        "first_thrill",
        "is_verified",
        "phone",
        "prize",
        "shared",
        "slug",
        "status",
        // The status's label (app/utils/labels.ts): no more than the status says.
        "status_label",
        "total_prize",
        "verified",
      ].sort(),
    );
    expect(stranger.text).not.toContain("Maya");
    expect(stranger.text).not.toContain(mine.values.citizenship_no);
  });

  it("page: Send code shows the code step without the entry; the right code opens it in this browser", async () => {
    const mine = await createThroughApi();
    const phone = mine.values.phone;
    // The form's "Send code" button posts the whole form, urlencoded, to /enquiry/continue.
    const form = new URLSearchParams({ ...fields({ phone }), intent: "send" });
    const step = await answer(
      continuePage({
        request: new Request(`${BASE}/enquiry/continue`, {
          method: "POST",
          body: form,
          headers: { ...fresh(), "Content-Type": "application/x-www-form-urlencoded" },
        }),
        context,
        params: {},
      }),
    );
    expect(step.status).toBe(200);
    expect(step.data).toMatchObject({ step: "code", phone });
    expect(step.text).not.toContain(mine.slug);
    expect(step.text).not.toContain(mine.values.citizenship_no);
    const code = /\b(\d{6})\b/.exec(lastMessageTo(phone, "otp")!.text)![1];

    const wrong = await answer(
      continuePage({
        request: post("/enquiry/continue", multipart({ intent: "verify", phone, code: "000000" }), fresh()),
        context,
        params: {},
      }),
    );
    expect(wrong.status).toBe(422);
    expect(body(wrong).result.error.code).toEqual(["Invalid OTP"]);
    expect(wrong.text).not.toContain(mine.slug);

    const opened = await answer(
      continuePage({
        request: post("/enquiry/continue", multipart({ intent: "verify", phone, code }), fresh()),
        context,
        params: {},
      }),
    );
    expect(opened.status).toBe(302);
    // Unverified until now: the code proved the phone, so the entry is verified and drawn.
    expect(opened.headers.get("Location")).toBe(`/enquiry/${mine.slug}/draw`);
    const draw = await answer(
      drawPage({
        request: get(`/enquiry/${mine.slug}/draw`, { Cookie: cookieOf(opened) }),
        context,
        params: { slug: mine.slug },
      }),
    );
    expect(body(draw).details).toMatchObject({
      name: "Maya Gurung",
      citizenship_no: maskCitizenship(mine.values.citizenship_no),
    });
    expect(draw.text).not.toContain(mine.values.citizenship_no);
  });
});

describe("pages reached by a slug show the least", () => {
  it("verify and draw: the creating browser sees its details, a fresh browser the masked phone and the prize only", async () => {
    const values = fields();
    const saved = await answer(
      enquiryPage({
        request: post("/enquiry", multipart({ ...values, intent: "save" }), fresh()),
        context,
        params: {},
      }),
    );
    expect(saved.status).toBe(302);
    const slug = /\/enquiry\/([^/]+)\/verify#otp$/.exec(saved.headers.get("Location")!)![1];
    const creator = cookieOf(saved);
    expect(creator).toMatch(/^entries=/);

    const verifyAs = (cookie?: string) =>
      answer(
        verifyPage({
          request: get(`/enquiry/${slug}/verify`, cookie ? { Cookie: cookie } : {}),
          context,
          params: { slug },
        }),
      );
    const own = await verifyAs(creator);
    expect(body(own).details).toEqual({
      name: values.name,
      address: values.address,
      email: null,
      citizenship_no: maskCitizenship(values.citizenship_no),
    });
    expect(own.text).not.toContain(values.citizenship_no);
    const stranger = await verifyAs();
    expect(body(stranger).details).toBeNull();
    for (const secret of [values.name, values.address, values.citizenship_no, values.phone]) {
      expect(stranger.text).not.toContain(secret);
    }
    // A forged cookie is no cookie.
    const forged = await verifyAs(`entries=${Buffer.from(JSON.stringify([slug])).toString("base64")}.bad`);
    expect(body(forged).details).toBeNull();

    // The right code verifies; the draw page then shows the prize to anyone, the details to the owner only.
    const ok = await answer(
      verifyPageAction({
        request: post(`/enquiry/${slug}/verify`, multipart({ code: otpOf(values.phone) }), fresh()),
        context,
        params: { slug },
      }),
    );
    expect(ok.headers.get("Location")).toBe(`/enquiry/${slug}/draw`);
    expect(cookieOf(ok)).toMatch(/^entries=/);
    const drawAs = (cookie?: string) =>
      answer(
        drawPage({
          request: get(`/enquiry/${slug}/draw`, cookie ? { Cookie: cookie } : {}),
          context,
          params: { slug },
        }),
      );
    const ownDraw = await drawAs(creator);
    expect(body(ownDraw).details).toMatchObject({ name: values.name });
    const strangerDraw = await drawAs();
    expect(body(strangerDraw)).toMatchObject({ details: null, phone: expect.stringMatching(/^\d{2}X{6}\d{2}$/) });
    expect(body(strangerDraw).amount).toBeGreaterThan(0);
    for (const secret of [values.name, values.address, values.citizenship_no, values.phone]) {
      expect(strangerDraw.text).not.toContain(secret);
    }
  });

  it("a code sent to a verified entry's verify page proves nothing: no cookie", async () => {
    const entry = verified();
    for (const code of ["", "123456"]) {
      const res = await answer(
        verifyPageAction({
          request: post(`/enquiry/${entry.slug}/verify`, multipart({ code }), fresh()),
          context,
          params: { slug: entry.slug },
        }),
      );
      expect(res.headers.get("Location")).toBe(`/enquiry/${entry.slug}/draw`);
      expect(res.headers.get("Set-Cookie")).toBeNull();
      const api = await answer(
        enquiryVerifyApi({
          request: post(`/api/v1/enquiry/${entry.slug}/verify`, { code }, fresh()),
          context,
          params: { id: entry.slug },
        }),
      );
      expect(api.status).toBe(200);
      expect(api.headers.get("Set-Cookie")).toBeNull();
    }
  });

  it("the browser's list keeps the newest few entries", async () => {
    let cookie = "";
    const slugs: string[] = [];
    for (let i = 0; i < 6; i++) {
      const created = await answer(
        enquiryApi({
          request: post("/api/v1/enquiry", multipart(fields()), { ...fresh(), ...(cookie ? { Cookie: cookie } : {}) }),
          context,
          params: {},
        }),
      );
      slugs.push(body(created).data.slug);
      cookie = cookieOf(created);
    }
    const row = db
      .select({ name: schema.preregistrations.name })
      .from(schema.preregistrations)
      .where(eq(schema.preregistrations.slug, slugs[5]))
      .get();
    expect(row?.name).toBe("Maya Gurung");
    const details = async (slug: string) =>
      body(
        await answer(
          verifyPage({ request: get(`/enquiry/${slug}/verify`, { Cookie: cookie }), context, params: { slug } }),
        ),
      ).details;
    expect(await details(slugs[5])).not.toBeNull();
    expect(await details(slugs[1])).not.toBeNull();
    expect(await details(slugs[0])).toBeNull();
  });
});
