// Registrations on a real SQLite copy: creating from a verified pre-registration in one transaction,
// field errors for duplicates, idempotent form tokens, the purchase code, the coupon draw, delete/restore,
// the list's filters and full-text search, the download rows and the referrer search.
import { movingClock } from "../../tests/clock";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { referrerText } from "~/models/labels";
import { findAtCounter } from "~/models/preregistration-admin.server";
import { currentCode } from "~/models/otp.server";
import { parseTableParams } from "~/utils/datatable.server";
import { kathmanduDate, setClock } from "~/utils/time";
import { REGISTRATION_MESSAGES as M, type RegistrationInput } from "~/schemas/registration";
import {
  makeBikeModel,
  makeBranch,
  makePreregistration,
  makeUser,
  nextPhone,
  makeAllocation,
} from "../../tests/fixtures";
import {
  billWithoutPrefix,
  confirmRegistration,
  createRegistration,
  deleteRegistration,
  drawCoupon,
  newCouponCode,
  notifyRegistration,
  prefixBill,
  resetRegistrationCode,
  restoreRegistration,
  updateRegistration,
} from "./registration.server";
import {
  exportRegistrations,
  findRegistration,
  getRegistrationDetail,
  listDeletedRegistrations,
  listRegistrations,
  searchRegistrants,
  type RegistrationFilters,
} from "./registration-list.server";
import { clearOfKathmanduMidnight } from "../../tests/clock";

// These tests date pools and filters "today": none starts within 20 s of a Kathmandu midnight.
beforeEach(() => clearOfKathmanduMidnight(20_000));

let branchA: ReturnType<typeof makeBranch>;
let branchB: ReturnType<typeof makeBranch>;
let model: ReturnType<typeof makeBikeModel>;
let model2: ReturnType<typeof makeBikeModel>;
let actorA: { id: number; scope: { branchId: number } };
let actorB: { id: number; scope: { branchId: number } };
const HEAD = { branchId: null };

let seq = 0;
const uniq = () => `${Date.now().toString(36)}${(seq++).toString(36)}`.toUpperCase();

function verifiedPre(over: Partial<typeof schema.preregistrations.$inferInsert> = {}) {
  return makePreregistration({ is_verified: true, status: "verified", prize: 5000, branch_id: branchA.id, ...over });
}

function input(over: Partial<RegistrationInput> = {}): RegistrationInput {
  const u = uniq();
  return {
    bill_no: `BILL${u}`,
    name: "Buyer Person",
    address: "Kathmandu 4",
    citizenship_no: "123456789",
    bike_model_id: model.id,
    engine_no: `EN${u}`,
    chasis_no: `CH${u}`,
    registration_no: `BA-${u}`,
    payment_mode: "CASH",
    send_sms: false,
    ...over,
  };
}

async function registered(pre = verifiedPre(), actor = actorA, over: Partial<RegistrationInput> = {}) {
  const res = await createRegistration(actor, pre.slug, input(over));
  if (!res.ok) throw new Error(res.message);
  return res.registration;
}

async function confirmed(pre = verifiedPre(), actor = actorA, over: Partial<RegistrationInput> = {}) {
  const reg = await registered(pre, actor, over);
  const code = currentCode("registration", reg.id)!.code!;
  const res = confirmRegistration(actor, reg.slug, code);
  if (!res.ok) throw new Error(res.message);
  return res.registration;
}

const params = (q: Record<string, string> = {}) => parseTableParams(new URLSearchParams({ length: "100", ...q }));
const slugs = (filters: RegistrationFilters, scope: { branchId: number | null } = HEAD) =>
  listRegistrations(scope, params(), filters).data.map((r) => r.slug);

beforeAll(async () => {
  branchA = makeBranch({ title: "Alpha Motors" });
  branchB = makeBranch({ title: "Beta Motors" });
  model = makeBikeModel("Racer 150");
  model2 = makeBikeModel("Cruiser 200");
  actorA = { id: (await makeUser("branch-staff", branchA.id)).id, scope: { branchId: branchA.id } };
  actorB = { id: (await makeUser("branch-staff", branchB.id)).id, scope: { branchId: branchB.id } };
});

afterEach(() => setClock(null));

describe("small rules", () => {
  it("prefixes the bill number with the branch once", () => {
    expect(prefixBill(7, " 123 ")).toBe("B7-123");
    expect(prefixBill(7, "b7-123")).toBe("B7-123");
    expect(prefixBill(7, "B3-9")).toBe("B7-B3-9");
    expect(billWithoutPrefix(7, "B7-123")).toBe("123");
  });

  it("makes coupon codes without look-alike characters", () => {
    for (let i = 0; i < 50; i++) expect(newCouponCode()).toMatch(/^TH-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
  });
});

describe("createRegistration", () => {
  it("registers the purchase, marks the pre-registration purchased and sends the purchase code", async () => {
    const pre = verifiedPre({ shared: true });
    const res = await createRegistration(actorA, pre.slug, input({ bill_no: "555", engine_no: "en-55.x_1" }));
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const reg = res.registration;
    expect(res.created).toBe(true);
    expect(reg).toMatchObject({
      bill_no: "B" + branchA.id + "-555",
      engine_no: "EN-55.X_1",
      phone: pre.phone,
      status: "pending",
      branch_id: branchA.id,
      shared: true,
      purchase_date: kathmanduDate(),
      coupon_amount: null,
    });
    expect(reg.coupon_code).toMatch(/^TH-/);
    expect(reg.prizes).toEqual({ first: 1000, second: 5000, third: 0, total: 6000 });
    const after = db.select().from(schema.preregistrations).where(eq(schema.preregistrations.id, pre.id)).get()!;
    expect(after).toMatchObject({ purchased: true, status: "purchased" });
    const sms = db
      .select()
      .from(schema.smsMessages)
      .where(and(eq(schema.smsMessages.to, pre.phone), eq(schema.smsMessages.purpose, "purchase-code")))
      .all();
    expect(sms).toHaveLength(1);
    expect(sms[0].text).toContain(currentCode("registration", reg.id)!.code!);
    // Queued with the registration (one commit), for the worker to send; tied to its registration.
    expect(sms[0]).toMatchObject({ status: "queued", subject_id: reg.id });
  });

  it("refuses head office (no branch), unverified and already purchased pre-registrations", async () => {
    const pre = verifiedPre();
    const head = await createRegistration({ id: actorA.id, scope: HEAD }, pre.slug, input());
    expect(head).toMatchObject({ ok: false, code: "forbidden", errors: { form: [M.noBranch] } });

    const unverified = makePreregistration({ branch_id: branchA.id });
    expect(await createRegistration(actorA, unverified.slug, input())).toMatchObject({
      ok: false,
      code: "conflict",
      message: M.notVerified,
    });

    await registered(pre);
    expect(await createRegistration(actorA, pre.slug, input())).toMatchObject({
      ok: false,
      code: "conflict",
      message: M.alreadyPurchased,
    });
  });

  it("cannot reach another branch's pre-registration; serves a public one once found at its counter", async () => {
    const theirs = verifiedPre({ branch_id: branchB.id });
    expect(await createRegistration(actorA, theirs.slug, input())).toMatchObject({ ok: false, code: "not_found" });
    const publicOne = verifiedPre({ branch_id: null, nearest_branch_id: branchB.id });
    // A public entry that named another showroom is out of reach until the counter finds it by its phone.
    expect(await createRegistration(actorA, publicOne.slug, input())).toMatchObject({ ok: false, code: "not_found" });
    findAtCounter(actorA, publicOne.phone);
    const res = await createRegistration(actorA, publicOne.slug, input());
    expect(res.ok && res.registration.branch_id).toBe(branchA.id);
  });

  it("answers duplicate engine, chassis, vehicle and bill numbers with field errors and saves nothing", async () => {
    const first = await registered(verifiedPre(), actorA, { bill_no: "DUP1" });
    const pre = verifiedPre();
    const res = await createRegistration(
      actorA,
      pre.slug,
      input({
        engine_no: first.engine_no.toLowerCase(),
        chasis_no: first.chasis_no,
        registration_no: first.registration_no,
        bill_no: "DUP1",
      }),
    );
    expect(res).toMatchObject({
      ok: false,
      code: "invalid",
      errors: {
        engine_no: [M.engineTaken],
        chasis_no: [M.chasisTaken],
        registration_no: [M.registrationNoTaken],
        bill_no: [M.billTaken],
      },
    });
    // Nothing half-saved: the pre-registration is still open for a purchase.
    const after = db.select().from(schema.preregistrations).where(eq(schema.preregistrations.id, pre.id)).get()!;
    expect(after.purchased).toBe(false);
    expect(
      db.select().from(schema.registrations).where(eq(schema.registrations.preregistration_id, pre.id)).all(),
    ).toHaveLength(0);
  });

  it("lets another branch use the same bill number, and a deleted registration's numbers be used again", async () => {
    const a = await registered(verifiedPre(), actorA, { bill_no: "SHARED-7" });
    const b = await registered(verifiedPre({ branch_id: branchB.id }), actorB, { bill_no: "SHARED-7" });
    expect(a.bill_no).toBe(`B${branchA.id}-SHARED-7`);
    expect(b.bill_no).toBe(`B${branchB.id}-SHARED-7`);
    expect(deleteRegistration(actorA, a.slug).ok).toBe(true);
    const again = await registered(verifiedPre(), actorA, {
      engine_no: a.engine_no,
      chasis_no: a.chasis_no,
      registration_no: a.registration_no,
      bill_no: "SHARED-7",
    });
    expect(again.engine_no).toBe(a.engine_no);
  });

  it("makes one record when the same form is submitted twice", async () => {
    const pre = verifiedPre();
    const token = `tok_${uniq()}_abcdefgh`;
    const values = input({ form_token: token });
    const [one, two] = await Promise.all([
      createRegistration(actorA, pre.slug, values),
      createRegistration(actorA, pre.slug, values),
    ]);
    expect(one.ok && two.ok).toBe(true);
    if (!one.ok || !two.ok) return;
    expect(one.registration.slug).toBe(two.registration.slug);
    expect([one.created, two.created].sort()).toEqual([false, true]);
    expect(db.select().from(schema.registrations).where(eq(schema.registrations.form_token, token)).all()).toHaveLength(
      1,
    );
  });

  it("resolves the referrer by phone and refuses an unknown one", async () => {
    const referrer = await registered(verifiedPre());
    const reg = await registered(verifiedPre(), actorA, { referrer: referrer.phone });
    expect(reg.registration_id).toBe(referrer.id);
    expect(reg.referrer).toEqual({ slug: referrer.slug, name: referrer.name });
    const res = await createRegistration(actorA, verifiedPre().slug, input({ referrer: nextPhone() }));
    expect(res).toMatchObject({ ok: false, errors: { referrer: [M.referrerMissing] } });
  });
});

describe("a referrer of another branch", () => {
  it("links by full phone without copying the name; the referrer shows only within the scope", async () => {
    const theirs = await registered(verifiedPre({ branch_id: branchB.id }), actorB, { name: "Faraway Referrer" });
    const reg = await registered(verifiedPre(), actorA, { referrer: theirs.phone });
    expect(reg.registration_id).toBe(theirs.id);
    expect(reg.referred_by).toBeNull();
    expect(reg.referrer).toBeNull();
    expect(referrerText(reg)).toBe("A customer of another branch");
    expect(JSON.stringify(getRegistrationDetail(actorA.scope, reg.slug))).not.toContain("Faraway");
    // Head office sees who it was.
    const seen = findRegistration(HEAD, reg.slug)!;
    expect(seen.referrer).toEqual({ slug: theirs.slug, name: "Faraway Referrer" });
    expect(referrerText(seen)).toBe("Faraway Referrer");
    // By id or slug only within the scope (an id cannot be guessed across branches).
    for (const over of [{ registration_id: theirs.id }, { referrer: theirs.slug }]) {
      const res = await createRegistration(actorA, verifiedPre().slug, input(over));
      expect(res).toMatchObject({ ok: false, code: "invalid", message: M.referrerMissing });
    }
    const own = await registered();
    const byId = await registered(verifiedPre(), actorA, { registration_id: own.id });
    expect(byId.referrer).toEqual({ slug: own.slug, name: own.name });
    expect(byId.referred_by).toBe(own.name);
  });
});

describe("confirmation code and coupon draw", () => {
  it("a wrong code answers the spec's message; the right one confirms", async () => {
    const reg = await registered();
    const wrong = confirmRegistration(
      actorA,
      reg.slug,
      "000000" === currentCode("registration", reg.id)!.code ? "111111" : "000000",
    );
    expect(wrong).toMatchObject({
      ok: false,
      code: "invalid",
      message: "Incorrect Code. Please Try again",
      errors: { code: [M.incorrectCode] },
    });
    const ok = confirmRegistration(actorA, reg.slug, currentCode("registration", reg.id)!.code!);
    expect(ok.ok && ok.registration.status).toBe("confirmed");
    expect(ok.ok && ok.alreadyConfirmed).toBe(false);
  });

  it("reset sends a new code once the resend wait is over", async () => {
    const start = Date.now();
    setClock(() => new Date(start));
    const reg = await registered();
    const first = currentCode("registration", reg.id)!.code;
    const soon = await resetRegistrationCode(actorA, reg.slug);
    expect(soon).toMatchObject({ ok: true, sent: false, message: "Incorrect Code. Please Try again" });
    setClock(() => new Date(start + 61_000));
    const later = await resetRegistrationCode(actorA, reg.slug);
    expect(later).toMatchObject({ ok: true, sent: true });
    const second = currentCode("registration", reg.id)!.code;
    expect(second).toMatch(/^\d{6}$/);
    if (first !== second) expect(confirmRegistration(actorA, reg.slug, first!).ok).toBe(false);
  });

  it("draws the coupon only for a confirmed registration, once", async () => {
    const branch = makeBranch({ title: "Draw Branch" });
    const actor = { id: actorA.id, scope: { branchId: branch.id } };
    makeAllocation({
      type: "registration_branch",
      branch_id: branch.id,
      date: kathmanduDate(),
      amount: 5000,
      count: 1,
      probability: 100,
    });
    const pending = await registered(verifiedPre({ branch_id: branch.id }), actor);
    expect(await drawCoupon(actor, pending.slug)).toMatchObject({
      ok: false,
      code: "conflict",
      message: M.notConfirmed,
    });
    const reg = await confirmed(verifiedPre({ branch_id: branch.id, prize: 8000 }), actor);
    const first = await drawCoupon(actor, reg.slug);
    expect(first).toMatchObject({
      ok: true,
      created: true,
      registration: { status: "drawn", coupon_amount: 5000, coupon: { amount: 5000 } },
    });
    expect(first.ok && first.registration.prizes).toEqual({ first: 0, second: 8000, third: 5000, total: 13000 });
    const again = await drawCoupon(actor, reg.slug);
    expect(again).toMatchObject({ ok: true, created: false, registration: { coupon_amount: 5000 } });
    // Another branch cannot draw it.
    expect(await drawCoupon(actorB, reg.slug)).toMatchObject({ ok: false, code: "not_found" });
  });

  it("notify sends the prize summary of a drawn registration", async () => {
    const reg = await confirmed();
    expect(await notifyRegistration(actorA, reg.slug)).toMatchObject({ ok: false, message: M.notDrawn });
    await drawCoupon(actorA, reg.slug);
    expect(await notifyRegistration(actorA, reg.slug)).toMatchObject({ ok: true, status: "queued" });
    const sms = db
      .select()
      .from(schema.smsMessages)
      .where(and(eq(schema.smsMessages.to, reg.phone), eq(schema.smsMessages.purpose, "notify")))
      .all();
    expect(sms.at(-1)!.text).toContain(reg.coupon_code);
    expect(sms.at(-1)!.text).toMatch(/Total Rs\. /);
  });
});

describe("edit, delete and restore", () => {
  it("updates fields, keeps the phone, and reports duplicates of other rows", async () => {
    const other = await registered();
    const reg = await registered();
    const res = updateRegistration(actorA, reg.slug, {
      ...input(),
      bill_no: "900",
      name: "Changed Name",
      engine_no: reg.engine_no,
    });
    expect(res).toMatchObject({
      ok: true,
      registration: { name: "Changed Name", bill_no: `B${branchA.id}-900`, phone: reg.phone },
    });
    const dup = updateRegistration(actorA, reg.slug, { ...input(), chasis_no: other.chasis_no });
    expect(dup).toMatchObject({ ok: false, code: "invalid", errors: { chasis_no: [M.chasisTaken] } });
    expect(updateRegistration(actorB, reg.slug, input())).toMatchObject({ ok: false, code: "not_found" });
  });

  it("deletes softly, lists it in the trash, and restores unless its numbers were taken meanwhile", async () => {
    const reg = await registered();
    expect(deleteRegistration(actorB, reg.slug)).toMatchObject({ ok: false, code: "not_found" });
    expect(deleteRegistration(actorA, reg.slug).ok).toBe(true);
    expect(findRegistration(actorA.scope, reg.slug)).toBeNull();
    expect(findRegistration(actorA.scope, reg.slug, { withDeleted: true })?.deleted_at).toBeTruthy();
    expect(listDeletedRegistrations(actorA.scope, params()).data.map((r) => r.slug)).toContain(reg.slug);
    expect(slugs({}, actorA.scope)).not.toContain(reg.slug);
    expect(restoreRegistration(actorA, reg.slug).ok).toBe(true);
    expect(slugs({}, actorA.scope)).toContain(reg.slug);

    deleteRegistration(actorA, reg.slug);
    await registered(verifiedPre(), actorA, { engine_no: reg.engine_no });
    const res = restoreRegistration(actorA, reg.slug);
    expect(res).toMatchObject({ ok: false, code: "conflict", errors: { engine_no: [M.restoreTaken("Engine No")] } });
  });
});

describe("lists, search and download", () => {
  it("filters by payment mode, model, branch, dates and prizes, inside the scope", async () => {
    const branch = makeBranch({ title: "Filter Branch" });
    const actor = { id: actorA.id, scope: { branchId: branch.id } };
    // The coupon is drawn on a day of its own: today's pools are committed by the draws before.
    const drawDay = "2026-02-17";
    makeAllocation({
      type: "registration_branch",
      branch_id: branch.id,
      date: drawDay,
      amount: 3000,
      count: 1,
      probability: 100,
    });
    const finance = await confirmed(verifiedPre({ branch_id: branch.id, prize: 9000, shared: true }), actor, {
      payment_mode: "FINANCE",
      bike_model_id: model2.id,
    });
    setClock(movingClock(`${drawDay}T06:00:00.000Z`));
    await drawCoupon(actor, finance.slug).finally(() => setClock(null)); // 1000 + 9000 + 3000
    const cash = await registered(verifiedPre({ branch_id: branch.id, prize: 4000 }), actor);
    const scope = actor.scope;
    expect(slugs({ payment_mode: "FINANCE" }, scope)).toEqual([finance.slug]);
    expect(slugs({ bike_model: model2.id }, scope)).toEqual([finance.slug]);
    expect(slugs({ pre_prize: 4000 }, scope)).toEqual([cash.slug]);
    expect(slugs({ post_prize: 3000 }, scope)).toEqual([finance.slug]);
    expect(slugs({ prize: 13000 }, scope)).toEqual([finance.slug]);
    expect(slugs({ prize: 4000 }, scope)).toEqual([cash.slug]);
    const today = kathmanduDate();
    expect(slugs({ from: today, to: today }, scope).sort()).toEqual([finance.slug, cash.slug].sort());
    expect(slugs({ to: "2020-01-01" }, scope)).toEqual([]);
    // Head office narrows by branch; a branch user's branch filter cannot widen its scope.
    expect(slugs({ branch: branch.id }).sort()).toEqual([finance.slug, cash.slug].sort());
    expect(slugs({ branch: branch.id }, actorB.scope)).not.toContain(finance.slug);
  });

  it("searches name, phone, bill, engine and chassis substrings through the full-text index", async () => {
    const reg = await registered(verifiedPre(), actorA, {
      name: "Zebulon Khadka",
      bill_no: "QX-4471",
      engine_no: "ZZENG98765",
    });
    const search = (q: string, scope: { branchId: number | null } = HEAD) =>
      listRegistrations(scope, params({ search: q })).data.map((r) => r.slug);
    expect(search("ebulon")).toContain(reg.slug);
    expect(search("zebulon khad")).toContain(reg.slug);
    expect(search("QX-447")).toContain(reg.slug);
    expect(search("eng9876")).toContain(reg.slug);
    expect(search(reg.chasis_no.slice(2))).toContain(reg.slug);
    expect(search(reg.phone.slice(3))).toContain(reg.slug);
    expect(search("ebulon", actorB.scope)).toEqual([]);
    // A quote in the term is harmless.
    expect(search('"ebulon')).toContain(reg.slug);
    // Renamed rows are found by the new name only (the index follows updates).
    updateRegistration(actorA, reg.slug, {
      ...input(),
      name: "Yolanda Basnet",
      engine_no: reg.engine_no,
      chasis_no: reg.chasis_no,
      registration_no: reg.registration_no,
      bill_no: "QX-4471",
    });
    expect(search("ebulon")).not.toContain(reg.slug);
    expect(search("olanda bas")).toContain(reg.slug);
  });

  it("exports the filtered rows with prize columns", async () => {
    const branch = makeBranch({ title: "Export Branch" });
    const actor = { id: actorA.id, scope: { branchId: branch.id } };
    const a = await registered(verifiedPre({ branch_id: branch.id }), actor, { payment_mode: "SELF_FINANCE" });
    await registered(verifiedPre({ branch_id: branch.id }), actor, { payment_mode: "CASH" });
    const rows = [...exportRegistrations(actor.scope, { payment_mode: "SELF_FINANCE" })];
    expect(rows.map((r) => r.slug)).toEqual([a.slug]);
    expect([...exportRegistrations(actor.scope, {}, { limit: 1 })]).toHaveLength(1);
  });

  it("suggests referrers from the own branch; another branch's customer only by full phone, without name or slug", async () => {
    const own = await registered(verifiedPre(), actorA, { name: "Referrer Quentin" });
    const other = await registered(verifiedPre({ branch_id: branchB.id }), actorB, { name: "Referrer Quentin" });
    const byName = searchRegistrants(actorA.scope, "Quentin");
    expect(byName.map((o) => o.slug)).toContain(own.slug);
    expect(byName.map((o) => o.slug)).not.toContain(other.slug);
    expect(searchRegistrants(actorA.scope, own.phone)).toEqual([
      { value: own.id, label: `Referrer Quentin (${own.phone})`, slug: own.slug, phone: own.phone },
    ]);
    const byPhone = searchRegistrants(actorA.scope, other.phone);
    expect(byPhone).toEqual([
      {
        value: null,
        label: `Registered customer at another branch (${other.phone.slice(0, 2)}XXXXXX${other.phone.slice(-2)})`,
        slug: null,
        phone: other.phone,
      },
    ]);
    expect(JSON.stringify(byPhone)).not.toContain("Quentin");
    // A partial number finds the own branch's customers only.
    const partial = searchRegistrants(actorA.scope, other.phone.slice(0, 8));
    expect(partial.every((o) => o.slug !== null && o.slug !== other.slug)).toBe(true);
    expect(searchRegistrants(HEAD, "Quentin").map((o) => o.slug)).toEqual(
      expect.arrayContaining([own.slug, other.slug]),
    );
  });
});
