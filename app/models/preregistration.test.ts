// Pre-registration rules against a real SQLite copy: validation and filters, duplicates,
// pending purchase, closed campaign, double submit, screenshots, captcha (local fake
// siteverify server), OTP verification with its draw, resend, scope and rate limits.
import http from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { makeBikeModel, makeBranch, makePreregistration, makeUser, nextPhone } from "../../tests/fixtures";
import { HONEYPOT_FIELD_NAME } from "~/components/public/constants";
import { HONEYPOT_FIELD } from "~/utils/captcha.server";
import { setClock } from "~/utils/time";
import {
  createPreregistration,
  getPreregistrationBySlug,
  publicView,
  resendVerificationCode,
  resolveScreenshotRef,
  reviewPreregistration,
  screenshotRefFor,
  verifyPreregistration,
  type CreateContext,
} from "./preregistration.server";
import { setSetting } from "./settings.server";
import { lastMessageTo } from "./sms.server";

const PUBLIC: CreateContext = { channel: "public", branchId: null, userId: null };

let branch: ReturnType<typeof makeBranch>;
let otherBranch: ReturnType<typeof makeBranch>;
let model: ReturnType<typeof makeBikeModel>;

let citizen = 5_000_000;
const nextCitizenship = () => String(citizen++ * 7);
let tokenSeq = 0;
const nextToken = () => `token-${Date.now().toString(36)}-${(tokenSeq++).toString().padStart(6, "0")}`;

function form(values: Record<string, string | Blob | undefined>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(values)) if (v !== undefined) f.append(k, v);
  return f;
}

function validInput(over: Record<string, string | Blob | undefined> = {}) {
  return form({
    name: "Ram Bahadur Thapa",
    address: "Baneshwor, Kathmandu",
    email: "ram@example.com",
    phone: nextPhone(),
    citizenship_no: nextCitizenship(),
    nearest_branch_id: String(branch.id),
    bike_model_id: String(model.id),
    source: "RADIO",
    ...over,
  });
}

const codeOf = (phone: string) => /\b(\d{6})\b/.exec(lastMessageTo(phone, "otp")?.text ?? "")?.[1] ?? "";
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

async function png(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: "#c8102e" } })
    .png()
    .toBuffer();
}

async function createOk(input = validInput(), ctx: CreateContext = PUBLIC) {
  const result = await createPreregistration(input, ctx);
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result)}`);
  return result.preregistration;
}

beforeAll(() => {
  branch = makeBranch();
  otherBranch = makeBranch();
  model = makeBikeModel();
});

beforeEach(() => {
  setSetting("registration_open", true);
  delete process.env.RECAPTCHA_SITE_KEY;
  delete process.env.RECAPTCHA_SECRET;
});

afterEach(() => setClock(null));

describe("createPreregistration (public)", () => {
  it("saves an unverified entry without a branch, with its nearest showroom, and sends a 6-digit code", async () => {
    const input = validInput();
    const phone = input.get("phone") as string;
    const entry = await createOk(input);
    expect(entry).toMatchObject({
      branch_id: null,
      nearest_branch_id: branch.id,
      bike_model_id: model.id,
      is_verified: false,
      status: "unverified",
      purchased: false,
      send_sms: true,
      source: "RADIO",
      phone,
    });
    expect(entry.slug.length).toBeGreaterThanOrEqual(16);
    expect(codeOf(phone)).toMatch(/^\d{6}$/);
  });

  it("applies the spec's filters again on the server", async () => {
    const phone = nextPhone();
    const entry = await createOk(
      validInput({
        name: "Ram-Bahadur  थापा!!",
        address: "Ward #5, Kathmandu",
        email: "ram<script>@example.com",
        phone: `+977 ${phone.slice(0, 3)}-${phone.slice(3)}`,
        citizenship_no: "27-01-७४-1234",
      }),
    );
    expect(entry.phone).toBe(phone);
    expect(entry.name).toBe("RamBahadur थापा");
    expect(entry.address).toBe("Ward 5 Kathmandu");
    expect(entry.email).toBe("ramscript@example.com");
    expect(entry.citizenship_no).toBe("270174" + "1234");
  });

  it("reports every missing required field under its name, the nearest showroom included", async () => {
    const result = await createPreregistration(form({ email: "not an email" }), PUBLIC);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe("invalid");
    expect(Object.keys(result.errors).sort()).toEqual(
      ["address", "citizenship_no", "email", "name", "nearest_branch_id", "phone"].sort(),
    );
    expect(result.errors.phone).toEqual(["Please enter your phone number."]);
    const bad = await createPreregistration(
      validInput({ phone: "12345", nearest_branch_id: "999999", source: "TV" }),
      PUBLIC,
    );
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.errors.phone).toEqual(["Please enter a valid mobile number (10 digits starting with 9)."]);
    expect(bad.errors.source).toEqual(["Please choose how you heard about us from the list."]);
  });

  it("accepts a plain object (JSON body) as well as FormData", async () => {
    const phone = nextPhone();
    const entry = await createOk({
      name: "Sita",
      address: "Pokhara",
      phone,
      citizenship_no: nextCitizenship(),
      nearest_branch_id: branch.id,
      shared: false,
    } as never);
    expect(entry.phone).toBe(phone);
  });

  it("creates one record when the same form is submitted twice, even at the same moment", async () => {
    const token = nextToken();
    const input = validInput({ form_token: token });
    const phone = input.get("phone") as string;
    const first = await createPreregistration(input, PUBLIC);
    const again = await createPreregistration(input, PUBLIC);
    expect(first.ok && again.ok).toBe(true);
    if (!first.ok || !again.ok) return;
    expect(first.duplicate).toBe(false);
    expect(again.duplicate).toBe(true);
    expect(again.preregistration.id).toBe(first.preregistration.id);
    expect(db.select().from(schema.smsMessages).where(eq(schema.smsMessages.to, phone)).all()).toHaveLength(1);

    const token2 = nextToken();
    const input2 = validInput({ form_token: token2 });
    const [a, b] = await Promise.all([createPreregistration(input2, PUBLIC), createPreregistration(input2, PUBLIC)]);
    expect(a.ok && b.ok).toBe(true);
    const rows = db.select().from(schema.preregistrations).where(eq(schema.preregistrations.form_token, token2)).all();
    expect(rows).toHaveLength(1);
  });

  it("lets two visitors not take the same phone; an unverified holder is offered for verification", async () => {
    const phone = nextPhone();
    const first = await createOk(validInput({ phone }));
    const second = await createPreregistration(validInput({ phone }), PUBLIC);
    expect(second.ok).toBe(false);
    if (second.ok) return;
    expect(second.reason).toBe("duplicate_phone");
    expect(second.errors.phone[0]).toMatch(/already pre-registered/);
    expect(second.pendingSlug).toBe(first.slug);
    expect(second.errors.phone[1]).toBe(first.slug);

    db.update(schema.preregistrations).set({ is_verified: true }).where(eq(schema.preregistrations.id, first.id)).run();
    const third = await createPreregistration(validInput({ phone }), PUBLIC);
    expect(third.ok).toBe(false);
    if (third.ok) return;
    expect(third.errors.phone).toEqual(["This phone number is already pre-registered."]);
    expect(third.pendingSlug).toBeUndefined();
    expect(
      db.select().from(schema.preregistrations).where(eq(schema.preregistrations.phone, phone)).all(),
    ).toHaveLength(1);
  });

  it("refuses a citizenship/PAN with a pending purchase, naming that entry", async () => {
    const citizenship = nextCitizenship();
    const pending = makePreregistration({ citizenship_no: citizenship, is_verified: true, status: "verified" });
    const result = await createPreregistration(validInput({ citizenship_no: citizenship }), PUBLIC);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe("pending_purchase");
    expect(result.errors.citizenship_no).toEqual(["This citizenship/pan has pending purchase.", pending.slug]);
    expect(result.pendingSlug).toBe(pending.slug);

    db.update(schema.preregistrations)
      .set({ purchased: true, status: "purchased" })
      .where(eq(schema.preregistrations.id, pending.id))
      .run();
    await createOk(validInput({ citizenship_no: citizenship }));
  });

  it("refuses public entries while registration is closed; staff go on", async () => {
    setSetting("registration_open", false);
    const result = await createPreregistration(validInput(), PUBLIC);
    expect(result).toMatchObject({
      ok: false,
      reason: "closed",
      errors: { form: ["Registration is closed. Please contact the admin for more information."] },
    });
    const staff = await makeUser("branch-staff", branch.id);
    const entry = await createOk(validInput({ nearest_branch_id: undefined }), {
      channel: "branch",
      branchId: branch.id,
      userId: staff.id,
    });
    expect(entry).toMatchObject({ branch_id: branch.id, nearest_branch_id: branch.id, created_by: staff.id });
  });

  it("turns a filled honeypot away", async () => {
    expect(HONEYPOT_FIELD_NAME).toBe(HONEYPOT_FIELD);
    const result = await createPreregistration(validInput({ [HONEYPOT_FIELD]: "http://spam" }), PUBLIC);
    expect(result).toMatchObject({ ok: false, reason: "rejected" });
  });
});

describe("screenshots", () => {
  it("needs a screenshot when a public visitor says they shared", async () => {
    const result = await createPreregistration(validInput({ shared: "on" }), PUBLIC);
    expect(result).toMatchObject({ ok: false, errors: { screenshot: ["Please upload a screenshot of your post."] } });
  });

  it("stores the screenshot bounded to 720 x 1280", async () => {
    const file = new File([new Uint8Array(await png(1600, 1000))], "share.png", { type: "image/png" });
    const entry = await createOk(validInput({ shared: "on", screenshot: file }));
    expect(entry.shared).toBe(true);
    const stored = db.select().from(schema.files).where(eq(schema.files.id, entry.screenshot_id!)).get()!;
    expect(stored.type).toBe("screenshot");
    expect(stored.width).toBe(720);
    expect(stored.height).toBe(450);
    expect(getPreregistrationBySlug(entry.slug)?.screenshot_url).toBe(`/files/${stored.key}`);
  });

  it("reports a file that is not an image under screenshot", async () => {
    const file = new File([new TextEncoder().encode("not an image")], "x.png", { type: "image/png" });
    const result = await createPreregistration(validInput({ shared: "on", screenshot: file }), PUBLIC);
    expect(result).toMatchObject({
      ok: false,
      reason: "upload",
      errors: { screenshot: ["Only JPEG, PNG or WebP images are accepted."] },
    });
  });

  it("keeps the screenshot of the confirmation step by a signed reference, used once", async () => {
    const file = new File([new Uint8Array(await png(300, 500))], "share.png", { type: "image/png" });
    const input = validInput({ shared: "on", screenshot: file });
    const review = await reviewPreregistration(input, PUBLIC);
    expect(review.ok).toBe(true);
    if (!review.ok) return;
    expect(review.screenshotRef).toMatch(/^\d+\.[A-Za-z0-9_-]{32}$/);
    const id = Number(review.screenshotRef!.split(".")[0]);
    expect(resolveScreenshotRef(`${id}.${"A".repeat(32)}`)).toBeNull();
    expect(resolveScreenshotRef(review.screenshotRef)).toBe(id);

    input.delete("screenshot");
    input.set("screenshot_ref", review.screenshotRef!);
    const entry = await createOk(input);
    expect(entry.screenshot_id).toBe(id);
    expect(resolveScreenshotRef(screenshotRefFor(id))).toBeNull();
  });

  it("does not count as reviewed when the reference is forged", async () => {
    const result = await createPreregistration(
      validInput({ shared: "on", screenshot_ref: "1.forgedforgedforgedforgedforged12" }),
      PUBLIC,
    );
    expect(result).toMatchObject({ ok: false, errors: { screenshot: ["Please upload a screenshot of your post."] } });
  });
});

describe("captcha", () => {
  let server: http.Server;
  let answer = { success: true };
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer)));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    process.env.RECAPTCHA_VERIFY_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`;
  });
  afterAll(async () => {
    delete process.env.RECAPTCHA_VERIFY_URL;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    process.env.RECAPTCHA_SITE_KEY = "site";
    process.env.RECAPTCHA_SECRET = "secret";
  });

  it("checks g-recaptcha-response on the server when configured", async () => {
    answer = { success: false };
    const refused = await createPreregistration(validInput({ "g-recaptcha-response": "token" }), PUBLIC);
    expect(refused).toMatchObject({
      ok: false,
      reason: "captcha",
      errors: { "g-recaptcha-response": ["Please verify that you are not a robot."] },
    });
    answer = { success: true };
    await createOk(validInput({ "g-recaptcha-response": "token" }));
  });
});

describe("verification and the second-thrill draw", () => {
  it("says OTP is required, Invalid OTP for a wrong code, and refuses the sixth try", async () => {
    const input = validInput();
    const phone = input.get("phone") as string;
    const entry = await createOk(input);
    const code = codeOf(phone);
    expect(await verifyPreregistration(entry.slug, "")).toMatchObject({
      ok: false,
      reason: "required",
      message: "OTP is required",
    });
    for (let i = 0; i < 5; i++) {
      expect(await verifyPreregistration(entry.slug, wrong(code))).toMatchObject({
        ok: false,
        reason: "invalid",
        message: "Invalid OTP",
      });
    }
    const sixth = await verifyPreregistration(entry.slug, code);
    expect(sixth).toMatchObject({ ok: false, reason: "exhausted" });
    expect(getPreregistrationBySlug(entry.slug)?.is_verified).toBe(false);
  });

  it("verifies with the right code and draws once", async () => {
    const input = validInput();
    const phone = input.get("phone") as string;
    const entry = await createOk(input);
    const result = await verifyPreregistration(entry.slug, codeOf(phone));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.preregistration).toMatchObject({ is_verified: true, status: "verified" });
    expect(result.preregistration.verified_at).toBeTruthy();
    expect(result.preregistration.prize).toBe(result.draw.amount);
    expect([4000, 5000, 6000, 7000]).toContain(result.draw.amount);

    const again = await verifyPreregistration(entry.slug, "000000");
    expect(again.ok).toBe(true);
    if (!again.ok) return;
    expect(again.alreadyVerified).toBe(true);
    expect(again.draw.amount).toBe(result.draw.amount);
    const draws = db
      .select()
      .from(schema.draws)
      .where(and(eq(schema.draws.entry_type, "preregistration"), eq(schema.draws.entry_id, entry.id)))
      .all();
    expect(draws).toHaveLength(1);

    const view = publicView(again.preregistration);
    expect(view).toMatchObject({
      verified: true,
      prize: result.draw.amount,
      total_prize: result.draw.amount,
      first_thrill: 0,
    });
    expect(view.phone).toBe(`${phone.slice(0, 2)}XXXXXX${phone.slice(-2)}`);
    expect(JSON.stringify(view)).not.toContain(phone);
    expect(Object.keys(view)).not.toContain("code");
  });

  it("adds the first thrill for a shared entry", async () => {
    const file = new File([new Uint8Array(await png(200, 200))], "share.png", { type: "image/png" });
    const input = validInput({ shared: "on", screenshot: file });
    const entry = await createOk(input);
    const result = await verifyPreregistration(entry.slug, codeOf(input.get("phone") as string));
    if (!result.ok) throw new Error("expected ok");
    expect(publicView(result.preregistration).total_prize).toBe(result.draw.amount + 1000);
  });

  it("sends a new code only after 60 seconds", async () => {
    let clock = Date.now();
    setClock(() => new Date(clock));
    const input = validInput();
    const phone = input.get("phone") as string;
    const entry = await createOk(input);
    const first = codeOf(phone);
    const early = await resendVerificationCode(entry.slug);
    expect(early).toMatchObject({ ok: false, reason: "too-soon" });
    clock += 61_000;
    const later = await resendVerificationCode(entry.slug);
    expect(later).toMatchObject({ ok: true, message: "A new code has been sent." });
    const second = codeOf(phone);
    if (second !== first) {
      expect(await verifyPreregistration(entry.slug, first)).toMatchObject({ ok: false, reason: "invalid" });
    }
    expect((await verifyPreregistration(entry.slug, second)).ok).toBe(true);
    expect(await resendVerificationCode(entry.slug)).toMatchObject({ ok: false, reason: "already_verified" });
  });
});

describe("reading", () => {
  it("keeps branch users inside their branch", async () => {
    const staff = await makeUser("branch-staff", branch.id);
    const entry = await createOk(validInput(), { channel: "branch", branchId: branch.id, userId: staff.id });
    expect(getPreregistrationBySlug(entry.slug, { branchId: branch.id })?.branch).toEqual({
      id: branch.id,
      title: branch.title,
    });
    expect(getPreregistrationBySlug(entry.slug, { branchId: otherBranch.id })).toBeNull();
    expect(getPreregistrationBySlug(entry.slug, { branchId: null })?.id).toBe(entry.id);
    expect(await verifyPreregistration(entry.slug, "123456", { branchId: otherBranch.id })).toMatchObject({
      ok: false,
      reason: "not_found",
    });
    expect(await resendVerificationCode(entry.slug, { branchId: otherBranch.id })).toMatchObject({
      ok: false,
      reason: "not_found",
    });
  });
});

describe("rate limits", () => {
  it("limits public posts per address", async () => {
    const ctx = { ...PUBLIC, clientAddress: "10.77.0.1" };
    for (let i = 0; i < 20; i++) {
      const r = await createPreregistration(form({}), ctx);
      expect(r).toMatchObject({ ok: false, reason: "invalid" });
    }
    const limited = await createPreregistration(validInput(), ctx);
    expect(limited).toMatchObject({ ok: false, reason: "rate_limited" });
    if (!limited.ok) expect(limited.errors.form[0]).toMatch(/^Too many attempts/);
  });
});
