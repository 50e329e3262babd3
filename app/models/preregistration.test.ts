// Pre-registration rules against a real SQLite copy: values parsed by the shared schema,
// duplicates, pending purchase, closed campaign, double submit, screenshots, OTP verification
// with its draw in one transaction (and a failure injected between its writes), resend,
// scope and the grant of "found at the counter", rate limits, and one commit per public write.
import sharp from "sharp";
import { settleDraw } from "./prize-draw.server";
import { and, eq, sql } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { makeBikeModel, makeBranch, makePreregistration, makeUser, nextPhone } from "../../tests/fixtures";
import {
  counterPreregistrationSchema,
  OTP_MESSAGES,
  preregistrationPatchSchema,
  publicPreregistrationSchema,
} from "~/schemas/preregistration";
import { parseValue } from "~/http/body.server";
import { LIMITS } from "~/utils/rate-limit.server";
import { setClock } from "~/utils/time";
import type { ScopedActor } from "./scope.server";
import {
  checkContinueCode,
  resendVerificationCode,
  sendContinueCode,
  verifyPreregistration,
} from "./preregistration-verify.server";
import {
  createPreregistration,
  resolveScreenshotRef,
  reviewPreregistration,
  screenshotRefFor,
  type Channel,
  type Screenshot,
  type Visitor,
} from "./preregistration.server";
import { getPreregistrationBySlug, publicView } from "./preregistration-read.server";
import { setSetting } from "./settings.server";
import { lastMessageTo } from "./sms-outbox.server";

const PUBLIC: Visitor = { channel: "public", address: null };

let branch: ReturnType<typeof makeBranch>;
let otherBranch: ReturnType<typeof makeBranch>;
let model: ReturnType<typeof makeBikeModel>;

let citizen = 5_000_000;
const nextCitizenship = () => String(citizen++ * 7);
let tokenSeq = 0;
const nextToken = () => `token-${Date.now().toString(36)}-${(tokenSeq++).toString().padStart(6, "0")}`;

const fields = (over: Record<string, unknown> = {}) => ({
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

/** The values a route hands the model: the fields parsed with the public (or counter) schema. */
const valueOf = (over: Record<string, unknown> = {}, counter = false) =>
  (counter ? counterPreregistrationSchema : publicPreregistrationSchema).parse(fields(over));

const codeOf = (phone: string) => /\b(\d{6})\b/.exec(lastMessageTo(phone, "otp")?.text ?? "")?.[1] ?? "";
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

async function png(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: "#c8102e" } })
    .png()
    .toBuffer();
}

async function createOk(value = valueOf(), who: Channel = PUBLIC, screenshot: Screenshot = {}) {
  const result = await createPreregistration(who, value, screenshot);
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result)}`);
  return result.preregistration;
}

async function counterActor(branchId: number | null): Promise<ScopedActor> {
  const user = await makeUser(branchId === null ? "super-admin" : "branch-staff", branchId);
  return { id: user.id, email: user.email, address: "10.0.0.1", scope: { branchId } };
}

const auditRows = (slug: string) =>
  db
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.entity_type, "preregistration"), eq(schema.auditLog.entity_id, slug)))
    .all();

beforeAll(() => {
  branch = makeBranch();
  otherBranch = makeBranch();
  model = makeBikeModel();
});

beforeEach(() => setSetting("registration_open", true));

afterEach(() => setClock(null));

describe("the schema (what the routes hand the model)", () => {
  it("applies the spec's filters again on the server", () => {
    const phone = nextPhone();
    const value = valueOf({
      name: "Ram-Bahadur  थापा!!",
      address: "Ward #5, Kathmandu",
      email: "ram<script>@example.com",
      phone: `+977 ${phone.slice(0, 3)}-${phone.slice(3)}`,
      citizenship_no: "27-01-७४-1234",
    });
    expect(value).toMatchObject({
      phone,
      name: "RamBahadur थापा",
      address: "Ward 5, Kathmandu", // an address keeps its comma, full stop, hyphen and slash
      email: "ramscript@example.com",
      citizenship_no: "2701741234",
    });
  });

  it("reports every missing required field under its name, the nearest showroom included", async () => {
    const form = new FormData();
    form.set("email", "not an email");
    const result = await parseValue({ kind: "form", form }, publicPreregistrationSchema);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe("invalid");
    expect(Object.keys(result.errors).sort()).toEqual(
      ["address", "citizenship_no", "email", "name", "nearest_branch_id", "phone"].sort(),
    );
    expect(result.errors.phone).toEqual(["Please enter your phone number."]);
    const bad = await parseValue(
      { kind: "json", json: fields({ phone: "12345", nearest_branch_id: "x", source: "TV" }) },
      publicPreregistrationSchema,
    );
    if (bad.ok) throw new Error("expected invalid");
    expect(bad.errors.phone).toEqual(["Please enter a valid mobile number (10 digits starting with 9)."]);
    expect(bad.errors.source).toEqual(["Please choose how you heard about us from the list."]);
    expect(bad.errors.nearest_branch_id).toEqual(["Please choose your nearest showroom."]);
  });

  it("speaks to the visitor on the public form and of the customer at the counter", async () => {
    const empty = new FormData();
    const visitor = await parseValue({ kind: "form", form: empty }, publicPreregistrationSchema);
    const counter = await parseValue({ kind: "form", form: empty }, counterPreregistrationSchema);
    if (visitor.ok || counter.ok) throw new Error("expected invalid");
    expect(visitor.errors.name).toEqual(["Please enter your full name."]);
    expect(counter.errors).toMatchObject({
      name: ["Please enter the customer's full name."],
      address: ["Please enter the customer's address."],
      phone: ["Please enter the customer's phone number."],
      citizenship_no: ["Please enter the customer's citizenship number or PAN."],
    });
    const edit = await parseValue({ kind: "json", json: { source: "TV" } }, preregistrationPatchSchema);
    if (edit.ok) throw new Error("expected invalid");
    expect(edit.errors.source).toEqual(["Please choose how the customer heard about us from the list."]);
  });

  it("takes JSON's own types as well as form strings", async () => {
    const result = await parseValue(
      {
        kind: "json",
        json: { ...fields(), nearest_branch_id: branch.id, bike_model_id: model.id, shared: false, send_sms: false },
      },
      publicPreregistrationSchema,
    );
    expect(result).toMatchObject({ ok: true, value: { nearest_branch_id: branch.id, shared: false, send_sms: false } });
  });
});

describe("createPreregistration (public)", () => {
  it("saves an unverified entry without a branch, with its nearest showroom, and queues a 6-digit code", async () => {
    const value = valueOf();
    const entry = await createOk(value);
    expect(entry).toMatchObject({
      branch_id: null,
      nearest_branch_id: branch.id,
      bike_model_id: model.id,
      is_verified: false,
      status: "unverified",
      purchased: false,
      send_sms: true,
      source: "RADIO",
      created_by: null,
      phone: value.phone,
    });
    expect(entry.slug.length).toBeGreaterThanOrEqual(16);
    const sms = lastMessageTo(value.phone, "otp")!;
    expect(sms.text).toMatch(/\b\d{6}\b/);
    // The request does not wait for the gateway: the worker sends the queued message.
    expect(sms.status).toBe("queued");
    // Public visitor writes have no audit row.
    expect(auditRows(entry.slug)).toEqual([]);
  });

  it("refuses a bike model or showroom that is not active with the field's one message", async () => {
    const gone = makeBranch({ deleted_at: new Date().toISOString() });
    const result = await createPreregistration(PUBLIC, valueOf({ nearest_branch_id: gone.id, bike_model_id: 999999 }));
    expect(result).toMatchObject({
      ok: false,
      code: "invalid",
      errors: {
        nearest_branch_id: ["Please choose your nearest showroom."],
        bike_model_id: ["Please choose a bike model from the list."],
      },
    });
  });

  it("creates one record when the same form is submitted twice, even at the same moment", async () => {
    const value = valueOf({ form_token: nextToken() });
    const first = await createPreregistration(PUBLIC, value);
    const again = await createPreregistration(PUBLIC, value);
    expect(first.ok && again.ok).toBe(true);
    if (!first.ok || !again.ok) return;
    expect(first.duplicate).toBe(false);
    expect(again.duplicate).toBe(true);
    expect(again.preregistration.id).toBe(first.preregistration.id);
    expect(db.select().from(schema.smsMessages).where(eq(schema.smsMessages.to, value.phone)).all()).toHaveLength(1);

    const twin = valueOf({ form_token: nextToken() });
    const [a, b] = await Promise.all([createPreregistration(PUBLIC, twin), createPreregistration(PUBLIC, twin)]);
    expect(a.ok && b.ok).toBe(true);
    const rows = db
      .select()
      .from(schema.preregistrations)
      .where(eq(schema.preregistrations.form_token, twin.form_token!))
      .all();
    expect(rows).toHaveLength(1);
  });

  it("lets two visitors not take the same phone, telling a visitor nothing of the other entry", async () => {
    const phone = nextPhone();
    const first = await createOk(valueOf({ phone }));
    const second = await createPreregistration(PUBLIC, valueOf({ phone }));
    expect(second).toMatchObject({ ok: false, code: "invalid" });
    if (second.ok) return;
    // The same message alone, unverified or verified: no slug, no state of the other entry.
    expect(second.errors).toEqual({ phone: ["This phone number is already pre-registered."] });
    expect(JSON.stringify(second)).not.toContain(first.slug);

    db.update(schema.preregistrations).set({ is_verified: true }).where(eq(schema.preregistrations.id, first.id)).run();
    const third = await createPreregistration(PUBLIC, valueOf({ phone }));
    if (third.ok) throw new Error("expected a refusal");
    expect(third.errors).toEqual({ phone: ["This phone number is already pre-registered."] });
    const review = await reviewPreregistration(PUBLIC, valueOf({ phone }));
    expect(review).toMatchObject({ ok: false, errors: { phone: ["This phone number is already pre-registered."] } });
    expect(JSON.stringify(review)).not.toContain(first.slug);
    expect(
      db.select().from(schema.preregistrations).where(eq(schema.preregistrations.phone, phone)).all(),
    ).toHaveLength(1);
  });

  it("offers the counter an unverified holder of the phone to continue (its slug)", async () => {
    const phone = nextPhone();
    const actor = await counterActor(branch.id);
    const first = await createOk(valueOf({ phone, nearest_branch_id: undefined }, true), { channel: "counter", actor });
    const again = await createPreregistration({ channel: "counter", actor }, valueOf({ phone }, true));
    if (again.ok) throw new Error("expected a refusal");
    expect(again.errors.phone).toEqual([
      "This phone number is already pre-registered but not verified yet. Continue its verification.",
      first.slug,
    ]);
  });

  it("refuses a citizenship/PAN with a pending purchase: the message alone in public, the View slug at the counter", async () => {
    const citizenship = nextCitizenship();
    const pending = makePreregistration({
      citizenship_no: citizenship,
      is_verified: true,
      status: "verified",
      branch_id: branch.id,
    });
    const result = await createPreregistration(PUBLIC, valueOf({ citizenship_no: citizenship }));
    expect(result).toEqual({
      ok: false,
      code: "invalid",
      message: "This citizenship/pan has pending purchase.",
      errors: { citizenship_no: ["This citizenship/pan has pending purchase."] },
    });
    expect(JSON.stringify(result)).not.toContain(pending.slug);

    const staff = await counterActor(branch.id);
    const counter = await createPreregistration(
      { channel: "counter", actor: staff },
      valueOf({ citizenship_no: citizenship }, true),
    );
    expect(counter).toMatchObject({
      ok: false,
      code: "invalid",
      errors: { citizenship_no: ["This citizenship/pan has pending purchase.", pending.slug] },
    });
    // A branch that does not reach the entry gets the message without the link.
    const elsewhere = await counterActor(otherBranch.id);
    const other = await createPreregistration(
      { channel: "counter", actor: elsewhere },
      valueOf({ citizenship_no: citizenship }, true),
    );
    expect(other).toMatchObject({ errors: { citizenship_no: ["This citizenship/pan has pending purchase."] } });

    db.update(schema.preregistrations)
      .set({ purchased: true, status: "purchased" })
      .where(eq(schema.preregistrations.id, pending.id))
      .run();
    await createOk(valueOf({ citizenship_no: citizenship }));
  });

  it("refuses public entries while registration is closed; staff go on, audited", async () => {
    setSetting("registration_open", false);
    const result = await createPreregistration(PUBLIC, valueOf());
    expect(result).toEqual({
      ok: false,
      code: "closed",
      message: "Registration is closed. Please contact the admin for more information.",
      errors: { form: ["Registration is closed. Please contact the admin for more information."] },
    });
    const actor = await counterActor(branch.id);
    const entry = await createOk(valueOf({ nearest_branch_id: undefined }, true), { channel: "counter", actor });
    expect(entry).toMatchObject({ branch_id: branch.id, nearest_branch_id: branch.id, created_by: actor.id });
    const [row] = auditRows(entry.slug);
    expect(row).toMatchObject({ action: "preregistration.create", user_id: actor.id, address: "10.0.0.1" });
    expect(JSON.parse(row.changes).phone).toEqual({ before: null, after: entry.phone });
  });
});

describe("the counter's branch", () => {
  it("a branch user's entry is its own branch's whatever is sent; head office must choose an active one", async () => {
    const staff = await counterActor(branch.id);
    const mine = await createOk(valueOf({ branch_id: otherBranch.id }, true), { channel: "counter", actor: staff });
    expect(mine.branch_id).toBe(branch.id);

    const head = await counterActor(null);
    const missing = await createPreregistration({ channel: "counter", actor: head }, valueOf({}, true));
    expect(missing).toMatchObject({
      ok: false,
      code: "invalid",
      errors: { branch_id: ["Choose the branch this pre-registration belongs to."] },
    });
    const gone = makeBranch({ deleted_at: new Date().toISOString() });
    const inactive = await createPreregistration(
      { channel: "counter", actor: head },
      valueOf({ branch_id: gone.id }, true),
    );
    expect(inactive).toMatchObject({ errors: { branch_id: ["Choose the branch this pre-registration belongs to."] } });
    const chosen = await createOk(valueOf({ branch_id: otherBranch.id }, true), { channel: "counter", actor: head });
    expect(chosen.branch_id).toBe(otherBranch.id);
  });
});

describe("screenshots", () => {
  it("needs a screenshot when a public visitor says they shared", async () => {
    const result = await createPreregistration(PUBLIC, valueOf({ shared: "on" }));
    expect(result).toMatchObject({ ok: false, errors: { screenshot: ["Please upload a screenshot of your post."] } });
  });

  it("stores the screenshot bounded to 720 x 1280", async () => {
    const file = new File([new Uint8Array(await png(1600, 1000))], "share.png", { type: "image/png" });
    const entry = await createOk(valueOf({ shared: "on" }), PUBLIC, { file });
    expect(entry.shared).toBe(true);
    const stored = db.select().from(schema.files).where(eq(schema.files.id, entry.screenshot_id!)).get()!;
    expect(stored).toMatchObject({ type: "screenshot", width: 720, height: 450 });
    expect(getPreregistrationBySlug(entry.slug)?.screenshot_url).toBe(`/files/${stored.key}`);
  });

  it("reports a file that is not an image under screenshot", async () => {
    const file = new File([new TextEncoder().encode("not an image")], "x.png", { type: "image/png" });
    const result = await createPreregistration(PUBLIC, valueOf({ shared: "on" }), { file });
    expect(result).toMatchObject({
      ok: false,
      code: "invalid",
      errors: { screenshot: ["Only JPEG, PNG or WebP images are accepted."] },
    });
  });

  it("keeps the screenshot of the confirmation step by a signed reference, used once", async () => {
    const file = new File([new Uint8Array(await png(300, 500))], "share.png", { type: "image/png" });
    const value = valueOf({ shared: "on" });
    const review = await reviewPreregistration(PUBLIC, value, { file });
    if (!review.ok) throw new Error(JSON.stringify(review));
    expect(review.screenshotRef).toMatch(/^\d+\.[A-Za-z0-9_-]{32}$/);
    const id = Number(review.screenshotRef!.split(".")[0]);
    expect(resolveScreenshotRef(`${id}.${"A".repeat(32)}`)).toBeNull();
    expect(resolveScreenshotRef(review.screenshotRef)).toBe(id);

    const entry = await createOk({ ...value, screenshot_ref: review.screenshotRef! });
    expect(entry.screenshot_id).toBe(id);
    expect(resolveScreenshotRef(screenshotRefFor(id))).toBeNull();
  });

  it("does not count as reviewed when the reference is forged", async () => {
    const result = await createPreregistration(PUBLIC, valueOf({ shared: "on" }), {
      ref: "1.forgedforgedforgedforgedforged12",
    });
    expect(result).toMatchObject({ ok: false, errors: { screenshot: ["Please upload a screenshot of your post."] } });
  });
});

describe("verification and the second-thrill draw", () => {
  it("says OTP is required, Invalid OTP for a wrong code, that the fifth used the last try, and refuses the sixth", async () => {
    const value = valueOf();
    const entry = await createOk(value);
    const code = codeOf(value.phone);
    expect(await verifyPreregistration(PUBLIC, entry.slug, "")).toMatchObject({
      ok: false,
      code: "invalid",
      message: "OTP is required",
      errors: { code: ["OTP is required"] },
    });
    for (let i = 0; i < 4; i++) {
      expect(await verifyPreregistration(PUBLIC, entry.slug, wrong(code))).toMatchObject({
        ok: false,
        errors: { code: ["Invalid OTP"] },
      });
    }
    expect(await verifyPreregistration(PUBLIC, entry.slug, wrong(code))).toMatchObject({
      ok: false,
      errors: { code: [OTP_MESSAGES.lastTry] },
    });
    expect(await verifyPreregistration(PUBLIC, entry.slug, code)).toMatchObject({
      ok: false,
      errors: { code: ["This OTP was entered wrongly too many times. Please ask for a new code."] },
    });
    expect(getPreregistrationBySlug(entry.slug)?.is_verified).toBe(false);
  });

  it("verifies with the right code and draws once", async () => {
    const value = valueOf();
    const entry = await createOk(value);
    const result = await verifyPreregistration(PUBLIC, entry.slug, codeOf(value.phone));
    if (!result.ok) throw new Error(JSON.stringify(result));
    expect(result.preregistration).toMatchObject({ is_verified: true, status: "verified" });
    expect(result.preregistration.verified_at).toBeTruthy();
    // Fixed with the verification, drawn once its beacon round comes.
    const drawn = await result.draw();
    expect([4000, 5000, 6000, 7000]).toContain(drawn.amount);

    const again = await verifyPreregistration(PUBLIC, entry.slug, "000000");
    if (!again.ok) throw new Error(JSON.stringify(again));
    expect(again.alreadyVerified).toBe(true);
    expect(again.preregistration.prize).toBe(drawn.amount);
    expect((await again.draw()).amount).toBe(drawn.amount);
    const draws = db
      .select()
      .from(schema.draws)
      .where(and(eq(schema.draws.entry_type, "preregistration"), eq(schema.draws.entry_id, entry.id)))
      .all();
    expect(draws).toHaveLength(1);

    const view = publicView(again.preregistration);
    expect(view).toMatchObject({
      verified: true,
      prize: drawn.amount,
      total_prize: drawn.amount,
      first_thrill: 0,
    });
    expect(view.phone).toBe(`${value.phone.slice(0, 2)}XXXXXX${value.phone.slice(-2)}`);
    expect(JSON.stringify(view)).not.toContain(value.phone);
    expect(Object.keys(view)).not.toContain("code");
  });

  it("adds the first thrill for a shared entry", async () => {
    const file = new File([new Uint8Array(await png(200, 200))], "share.png", { type: "image/png" });
    const value = valueOf({ shared: "on" });
    const entry = await createOk(value, PUBLIC, { file });
    const result = await verifyPreregistration(PUBLIC, entry.slug, codeOf(value.phone));
    if (!result.ok) throw new Error("expected ok");
    const drawn = await result.draw();
    const after = db.select().from(schema.preregistrations).where(eq(schema.preregistrations.id, entry.id)).get()!;
    expect(publicView(after).total_prize).toBe(drawn.amount + 1000);
  });

  it("sends a new code only after 60 seconds", async () => {
    let clock = Date.now();
    setClock(() => new Date(clock));
    const value = valueOf();
    const entry = await createOk(value);
    const first = codeOf(value.phone);
    const early = resendVerificationCode(PUBLIC, entry.slug);
    expect(early).toMatchObject({ ok: false, code: "rate_limited" });
    if (!early.ok) expect(early.message).toMatch(/^Please wait \d+ seconds before asking for a new code\.$/);
    clock += 61_000;
    expect(resendVerificationCode(PUBLIC, entry.slug)).toMatchObject({
      ok: true,
      message: "A new code has been sent.",
    });
    const second = codeOf(value.phone);
    if (second !== first) {
      expect(await verifyPreregistration(PUBLIC, entry.slug, first)).toMatchObject({ ok: false });
    }
    expect((await verifyPreregistration(PUBLIC, entry.slug, second)).ok).toBe(true);
    expect(resendVerificationCode(PUBLIC, entry.slug)).toMatchObject({ ok: false, code: "conflict" });
  });
});

describe("verify: one transaction for the code, the entry and the draw", () => {
  /** A failure between the two writes: the entry's update is refused by a trigger of this connection. */
  const injectFailure = () =>
    db.run(
      sql.raw(
        "create temp trigger fail_verify before update of is_verified on preregistrations when new.is_verified = 1 begin select raise(abort, 'injected failure'); end",
      ),
    );
  const removeFailure = () => db.run(sql.raw("drop trigger if exists temp.fail_verify"));

  it("a failure after the code is consumed leaves the code unused and the entry unverified", async () => {
    const value = valueOf();
    const entry = await createOk(value);
    const code = codeOf(value.phone);
    const codeRow = () =>
      db
        .select()
        .from(schema.oneTimeCodes)
        .where(and(eq(schema.oneTimeCodes.purpose, "preregistration"), eq(schema.oneTimeCodes.subject_id, entry.id)))
        .get()!;
    injectFailure();
    try {
      await expect(verifyPreregistration(PUBLIC, entry.slug, code)).rejects.toThrow(/injected failure/);
    } finally {
      removeFailure();
    }
    expect(codeRow()).toMatchObject({ consumed_at: null, attempts: 0 });
    expect(getPreregistrationBySlug(entry.slug)).toMatchObject({
      is_verified: false,
      status: "unverified",
      prize: null,
    });
    expect(
      db
        .select()
        .from(schema.draws)
        .where(and(eq(schema.draws.entry_type, "preregistration"), eq(schema.draws.entry_id, entry.id)))
        .all(),
    ).toEqual([]);

    // The same code still works once the fault is gone.
    const ok = await verifyPreregistration(PUBLIC, entry.slug, code);
    expect(ok.ok).toBe(true);
    expect(codeRow().consumed_at).toBeTruthy();
  });

  it("a failing draw undoes the verification too (its entry is fixed in the same transaction)", async () => {
    const value = valueOf();
    const entry = await createOk(value);
    db.run(
      sql.raw(
        "create temp trigger fail_draw before insert on draw_records begin select raise(abort, 'injected draw failure'); end",
      ),
    );
    try {
      await expect(verifyPreregistration(PUBLIC, entry.slug, codeOf(value.phone))).rejects.toThrow(
        /injected draw failure/,
      );
    } finally {
      db.run(sql.raw("drop trigger if exists temp.fail_draw"));
    }
    expect(getPreregistrationBySlug(entry.slug)?.is_verified).toBe(false);
  });
});

describe("verify at the counter", () => {
  it("a wrong code answers the spec's message and sends a fresh code; the right one verifies, audited", async () => {
    let clock = Date.now();
    setClock(() => new Date(clock));
    const actor = await counterActor(branch.id);
    const counter: Channel = { channel: "counter", actor };
    const value = valueOf({}, true);
    const entry = await createOk(value, counter);
    const first = codeOf(value.phone);
    expect(await verifyPreregistration(counter, entry.slug, "")).toMatchObject({
      ok: false,
      errors: { code: ["Enter the registration code the customer received"] },
    });
    // Within the first minute no new code may leave: the spec's message, and why.
    const early = await verifyPreregistration(counter, entry.slug, wrong(first));
    expect(early).toMatchObject({
      ok: false,
      code: "invalid",
      message: "the code you have selected is incorrect. Please try again or resend the code",
    });
    if (!early.ok) expect(early.errors.resend?.[0]).toMatch(/^Please wait/);
    clock += 61_000;
    const miss = await verifyPreregistration(counter, entry.slug, wrong(first));
    expect(miss).toMatchObject({
      ok: false,
      errors: { code: ["the code you have selected is incorrect. Please try again or resend the code"] },
    });
    if (!miss.ok) expect(miss.errors.resend).toBeUndefined();
    const fresh = codeOf(value.phone);
    const ok = await verifyPreregistration(counter, entry.slug, fresh);
    expect(ok).toMatchObject({ ok: true, preregistration: { is_verified: true } });
    const actions = auditRows(entry.slug).map((r) => r.action);
    expect(actions).toEqual(["preregistration.create", "preregistration.verify"]);
    const verifyRow = auditRows(entry.slug)[1];
    expect(JSON.parse(verifyRow.changes)).toMatchObject({
      is_verified: { before: false, after: true },
      status: { before: "unverified", after: "verified" },
    });
  });

  it("staff who may see codes verify without sending one (the spec's no-body call)", async () => {
    const head = await counterActor(null);
    const counter: Channel = { channel: "counter", actor: head };
    const entry = await createOk(valueOf({ branch_id: branch.id }, true), counter);
    expect(await verifyPreregistration(counter, entry.slug, null, { useCurrentCode: true })).toMatchObject({
      ok: true,
    });
  });
});

describe("reach", () => {
  it("keeps branch users inside their branch", async () => {
    const actor = await counterActor(branch.id);
    const entry = await createOk(valueOf({}, true), { channel: "counter", actor });
    expect(getPreregistrationBySlug(entry.slug, { branchId: branch.id })?.branch).toEqual({
      id: branch.id,
      title: branch.title,
    });
    expect(getPreregistrationBySlug(entry.slug, { branchId: otherBranch.id })).toBeNull();
    expect(getPreregistrationBySlug(entry.slug, { branchId: null })?.id).toBe(entry.id);
    const other: Channel = { channel: "counter", actor: await counterActor(otherBranch.id) };
    expect(await verifyPreregistration(other, entry.slug, "123456")).toMatchObject({ ok: false, code: "not_found" });
    expect(resendVerificationCode(other, entry.slug)).toMatchObject({ ok: false, code: "not_found" });
  });

  it("a public entry reaches the showroom it named; typing its phone at another counter records a grant", async () => {
    const online = await createOk(valueOf({ nearest_branch_id: branch.id }));
    expect(getPreregistrationBySlug(online.slug, { branchId: branch.id })?.id).toBe(online.id);
    expect(getPreregistrationBySlug(online.slug, { branchId: otherBranch.id })).toBeNull();

    // The customer walks into the other showroom; staff type the phone into the counter form.
    const actor = await counterActor(otherBranch.id);
    const attempt = await createPreregistration({ channel: "counter", actor }, valueOf({ phone: online.phone }, true));
    expect(attempt).toMatchObject({
      ok: false,
      errors: { phone: [expect.stringMatching(/not verified/), online.slug] },
    });
    expect(getPreregistrationBySlug(online.slug, { branchId: otherBranch.id })?.id).toBe(online.id);
    expect(auditRows(online.slug).map((r) => r.action)).toEqual(["preregistration.grant"]);
  });

  it("another branch's own entry is never granted, nor its slug shown", async () => {
    const owner = await counterActor(branch.id);
    const theirs = await createOk(valueOf({}, true), { channel: "counter", actor: owner });
    const actor = await counterActor(otherBranch.id);
    const attempt = await createPreregistration({ channel: "counter", actor }, valueOf({ phone: theirs.phone }, true));
    expect(attempt).toMatchObject({ ok: false, errors: { phone: ["This phone number is already pre-registered."] } });
    expect(getPreregistrationBySlug(theirs.slug, { branchId: otherBranch.id })).toBeNull();
  });
});

describe("continue: the owner of a taken phone gets back in with a code", () => {
  const smsCount = () => db.select({ id: schema.smsMessages.id }).from(schema.smsMessages).all().length;
  const accessCodeOf = (phone: string) => {
    const sms = lastMessageTo(phone, "otp");
    expect(sms?.text).toMatch(/open your pre-registration/);
    return /\b(\d{6})\b/.exec(sms!.text)![1];
  };
  let seq = 0;
  const visitor = (): Visitor => ({ channel: "public", address: `10.78.0.${++seq}` });

  it("sends a code to the stored phone only; the right code opens the entry and verifies it, once", async () => {
    const entry = await createOk();
    const before = smsCount();
    const who = visitor();
    const sent = sendContinueCode(who, entry.phone);
    expect(sent).toEqual({
      ok: true,
      phone: `${entry.phone.slice(0, 2)}XXXXXX${entry.phone.slice(-2)}`,
      resendAt: expect.any(String),
      message: "If this phone number is pre-registered, a 6-digit code has been sent to it by SMS.",
    });
    expect(smsCount()).toBe(before + 1);
    const code = accessCodeOf(entry.phone);
    // The access code is kept as a hash only (no staff screen shows it).
    const row = db
      .select()
      .from(schema.oneTimeCodes)
      .where(eq(schema.oneTimeCodes.purpose, "preregistration_access"))
      .all()
      .find((r) => r.subject_id === entry.id)!;
    expect(row).toMatchObject({ phone: entry.phone, code: null });

    expect(checkContinueCode(who, entry.phone, "")).toMatchObject({ errors: { code: ["OTP is required"] } });
    expect(checkContinueCode(who, entry.phone, wrong(code))).toMatchObject({
      ok: false,
      code: "invalid",
      errors: { code: ["Invalid OTP"] },
    });
    const opened = checkContinueCode(who, entry.phone, code);
    if (!opened.ok) throw new Error(JSON.stringify(opened));
    expect(opened.verified).toBe(true);
    expect(opened.preregistration).toMatchObject({ id: entry.id, is_verified: true, status: "verified" });
    // Its draw was fixed with the verification and is made once its beacon round comes.
    expect((await settleDraw("preregistration", entry.id)).amount).toBeGreaterThan(0);
    // A code works once.
    expect(checkContinueCode(who, entry.phone, code)).toMatchObject({ errors: { code: ["Invalid OTP"] } });
  });

  it("opens a verified entry as it is", async () => {
    const entry = await createOk();
    const verified = await verifyPreregistration(PUBLIC, entry.slug, codeOf(entry.phone));
    if (!verified.ok) throw new Error("expected verified");
    const drawn = await verified.draw();
    const who = visitor();
    sendContinueCode(who, entry.phone);
    const opened = checkContinueCode(who, entry.phone, accessCodeOf(entry.phone));
    if (!opened.ok) throw new Error(JSON.stringify(opened));
    expect(opened).toMatchObject({ verified: false, preregistration: { id: entry.id, prize: drawn.amount } });
  });

  it("answers a phone without an entry (or a deleted one) exactly as a registered one, and sends nothing", async () => {
    const known = await createOk();
    const deleted = await createOk();
    db.update(schema.preregistrations)
      .set({ deleted_at: new Date().toISOString() })
      .where(eq(schema.preregistrations.id, deleted.id))
      .run();
    const unknown = nextPhone();
    const shape = (r: ReturnType<typeof sendContinueCode>) =>
      r.ok ? { ...r, phone: "masked", resendAt: "later" } : { ...r, message: r.message.replace(/\d+/g, "N") };

    const before = smsCount();
    const answers = [known.phone, deleted.phone, unknown].map((phone) => sendContinueCode(visitor(), phone));
    expect(smsCount()).toBe(before + 1);
    expect(lastMessageTo(unknown)).toBeNull();
    expect(shape(answers[1])).toEqual(shape(answers[0]));
    expect(shape(answers[2])).toEqual(shape(answers[0]));

    // Again within 60 s: the same refusal for all three.
    const again = [known.phone, deleted.phone, unknown].map((phone) => sendContinueCode(visitor(), phone));
    expect(again[0]).toMatchObject({ ok: false, code: "rate_limited" });
    expect(again[0].ok || again[0].message).toMatch(/^Please wait \d+ seconds before asking for a new code\.$/);
    expect(shape(again[1])).toEqual(shape(again[0]));
    expect(shape(again[2])).toEqual(shape(again[0]));

    // Six misses: "Invalid OTP" every time, whether the phone has a code or not (never "too many times").
    for (const phone of [known.phone, deleted.phone, unknown]) {
      const who = visitor();
      for (let i = 0; i < 6; i++) {
        expect(checkContinueCode(who, phone, "000000")).toMatchObject({ errors: { code: ["Invalid OTP"] } });
      }
    }
  });

  it("limits sends per phone (one a minute, five an hour) whether or not it is registered", async () => {
    const known = await createOk();
    const unknown = nextPhone();
    let at = Date.now();
    setClock(() => new Date(at));
    for (const phone of [known.phone, unknown]) {
      for (let i = 0; i < 5; i++) {
        expect(sendContinueCode(visitor(), phone).ok).toBe(true);
        at += 61_000;
      }
      const capped = sendContinueCode(visitor(), phone);
      expect(capped).toMatchObject({ ok: false, code: "rate_limited" });
      expect(capped.ok || capped.message).toMatch(/^Too many codes were sent to this phone/);
    }
  });

  it("counts a try against the address's verification limit", async () => {
    const who = visitor();
    const phone = nextPhone();
    for (let i = 0; i < LIMITS["otp-verify-ip"].points; i++) checkContinueCode(who, phone, "123456");
    expect(checkContinueCode(who, phone, "123456")).toMatchObject({ ok: false, code: "rate_limited" });
  });
});

describe("rate limits", () => {
  it("a public create takes the address's point inside its transaction, refused once over", async () => {
    const who: Visitor = { channel: "public", address: "10.77.0.1" };
    const allowed = LIMITS["enquiry-ip"].points;
    for (let i = 0; i < allowed; i++) await createOk(valueOf(), who);
    const limited = await createPreregistration(who, valueOf());
    expect(limited).toMatchObject({ ok: false, code: "rate_limited" });
    if (!limited.ok) {
      expect(limited.errors.form[0]).toMatch(/^Too many attempts/);
      expect(limited.retryAfterSeconds).toBeGreaterThan(0);
    }
  });

  it("the confirmation step counts against the same limit", async () => {
    const who: Visitor = { channel: "public", address: "10.77.0.2" };
    const allowed = LIMITS["enquiry-ip"].points;
    for (let i = 0; i < allowed; i++) expect((await reviewPreregistration(who, valueOf())).ok).toBe(true);
    expect(await reviewPreregistration(who, valueOf())).toMatchObject({ ok: false, code: "rate_limited" });
    expect(await createPreregistration(who, valueOf())).toMatchObject({ ok: false, code: "rate_limited" });
  });

  it("a public write is one commit: record, code, SMS row and counters together", async () => {
    const who: Visitor = { channel: "public", address: "10.77.0.3" };
    const value = valueOf();
    const created = await countCommits(() => createOk(value, who));
    expect(created.commits).toBe(1);
    const verified = await countCommits(
      async () => await verifyPreregistration(who, created.result.slug, codeOf(value.phone)),
    );
    expect(verified.result.ok).toBe(true);
    expect(verified.commits).toBe(1);
    // The counter counts what it should: two writes of their own are two commits.
    const two = await countCommits(async () => {
      setSetting("probe", 1);
      setSetting("probe", 2);
    });
    expect(two.commits).toBe(2);
  });
});

/**
 * Runs `fn` counting the commits it makes on this process's connection: each
 * statement that writes (a transaction's BEGIN among them) run while no
 * transaction is open. Counted on the statements' own `run`, so a statement the
 * connection compiled before is counted as well as a new one.
 */
async function countCommits<T>(fn: () => Promise<T>): Promise<{ result: T; commits: number }> {
  const client = db.$client;
  let commits = 0;
  const statement = Object.getPrototypeOf(client.prepare("select 1")) as { run: (...args: unknown[]) => unknown };
  const run = statement.run;
  statement.run = function (this: { reader: boolean }, ...args: unknown[]) {
    if (!this.reader && !client.inTransaction) commits++;
    return run.apply(this, args);
  };
  try {
    const result = await fn();
    return { result, commits };
  } finally {
    statement.run = run;
  }
}
