// Every registration change (create, edit, purchase code, coupon draw, notify, delete, restore) and
// a test-ride delete writes its audit row in the change's own transaction: who, from where, what,
// and the fields before and after. A change that fails leaves no row; a row that cannot be written
// undoes the change. The prize summary SMS is queued in the same transaction and sent off the request.
import { entryReference as drawReference } from "@db/reference";
import { and, desc, eq } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import type { AuditEntry } from "@db/schema";
import { currentCode } from "~/models/otp.server";
import type { ScopedActor } from "~/models/scope.server";
import { REGISTRATION_MESSAGES as M, type RegistrationInput } from "~/schemas/registration";
import { randomSlug } from "~/utils/crypto.server";
import { kathmanduDate } from "~/utils/time";
import { makeAllocation, makeBikeModel, makeBranch, makePreregistration, makeUser } from "../../tests/fixtures";
import {
  confirmRegistration,
  createRegistration,
  deleteRegistration,
  drawCoupon,
  notifyRegistration,
  restoreRegistration,
  updateRegistration,
} from "./registration.server";
import { deleteTestRide } from "./test-ride.server";
import { clearOfKathmanduMidnight } from "../../tests/clock";

// These tests date pools and filters "today": none starts within 20 s of a Kathmandu midnight.
beforeEach(() => clearOfKathmanduMidnight(20_000));

let branch: ReturnType<typeof makeBranch>;
let other: ReturnType<typeof makeBranch>;
let model: ReturnType<typeof makeBikeModel>;
let actor: ScopedActor;
let stranger: ScopedActor;
let seq = 0;
const uniq = () => `${Date.now().toString(36)}${(seq++).toString(36)}`.toUpperCase();

const input = (over: Partial<RegistrationInput> = {}): RegistrationInput => {
  const u = uniq();
  return {
    bill_no: `AU${u}`,
    name: "Audited Buyer",
    address: "Bhaktapur 2",
    citizenship_no: "998877",
    bike_model_id: model.id,
    engine_no: `AE${u}`,
    chasis_no: `AC${u}`,
    registration_no: `AR-${u}`,
    payment_mode: "CASH",
    send_sms: true,
    ...over,
  };
};

const rows = (entityId: string): AuditEntry[] =>
  db
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.entity_type, "registration"), eq(schema.auditLog.entity_id, entityId)))
    .orderBy(schema.auditLog.id)
    .all();

const changes = (row: AuditEntry) => JSON.parse(row.changes) as Record<string, { before: unknown; after: unknown }>;

async function registered(over: Partial<RegistrationInput> = {}) {
  const pre = makePreregistration({ is_verified: true, status: "verified", prize: 4000, branch_id: branch.id });
  const res = await createRegistration(actor, pre.slug, input(over));
  if (!res.ok) throw new Error(res.message);
  return res.registration;
}

function confirm(slug: string, id: number) {
  const res = confirmRegistration(actor, slug, currentCode("registration", id)!.code!);
  if (!res.ok) throw new Error(res.message);
  return res.registration;
}

beforeAll(async () => {
  branch = makeBranch({ title: "Audit Branch" });
  other = makeBranch({ title: "Audit Elsewhere" });
  model = makeBikeModel("Audit 150");
  const user = await makeUser("branch-manager", branch.id);
  const outsider = await makeUser("branch-manager", other.id);
  actor = { id: user.id, email: user.email, address: "10.20.30.40", scope: { branchId: branch.id } };
  stranger = { id: outsider.id, email: outsider.email, address: "10.20.30.41", scope: { branchId: other.id } };
  makeAllocation({
    type: "registration_branch",
    branch_id: branch.id,
    date: kathmanduDate(),
    amount: 2000,
    count: 5,
    probability: 100,
  });
});

afterEach(() => {
  db.$client.exec("drop trigger if exists refuse_audit");
});

describe("the audit trail of registrations", () => {
  it("create, edit, confirm, draw, notify, delete and restore each write one row with who, where and what changed", async () => {
    const reg = await registered();
    const [created] = rows(reg.slug);
    expect(created).toMatchObject({
      action: "registration.create",
      user_id: actor.id,
      user_email: actor.email,
      address: "10.20.30.40",
    });
    expect(changes(created).bill_no).toEqual({ before: null, after: `B${branch.id}-${reg.bill_no.split("-")[1]}` });

    const edited = updateRegistration(actor, reg.slug, {
      ...input(),
      name: "Renamed Buyer",
      engine_no: reg.engine_no,
      chasis_no: reg.chasis_no,
      registration_no: reg.registration_no,
      bill_no: reg.bill_no,
    });
    expect(edited.ok).toBe(true);
    const update = rows(reg.slug).at(-1)!;
    expect(update.action).toBe("registration.update");
    expect(changes(update).name).toEqual({ before: "Audited Buyer", after: "Renamed Buyer" });
    expect(changes(update).engine_no).toBeUndefined();

    confirm(reg.slug, reg.id);
    expect(changes(rows(reg.slug).at(-1)!).status).toEqual({ before: "pending", after: "confirmed" });

    const drawn = await drawCoupon(actor, reg.slug);
    expect(drawn).toMatchObject({ ok: true, created: true, registration: { coupon_amount: 2000 } });
    const draw = rows(reg.slug).at(-1)!;
    expect(draw.action).toBe("registration.draw");
    // Audited with the fixing of the draw (its result is the public record's).
    expect(changes(draw)).toEqual({ draw: { before: null, after: `fixed: ${drawReference(reg.slug)}` } });
    // Drawing again changes nothing and writes nothing.
    expect(await drawCoupon(actor, reg.slug)).toMatchObject({ ok: true, created: false });
    expect(rows(reg.slug).filter((r) => r.action === "registration.draw")).toHaveLength(1);

    expect(notifyRegistration(actor, reg.slug)).toEqual({ ok: true, status: "queued" });
    expect(rows(reg.slug).at(-1)!.action).toBe("registration.notify");

    expect(deleteRegistration(actor, reg.slug).ok).toBe(true);
    expect(changes(rows(reg.slug).at(-1)!).deleted_at.before).toBeNull();
    expect(restoreRegistration(actor, reg.slug).ok).toBe(true);
    expect(changes(rows(reg.slug).at(-1)!).deleted_at.after).toBeNull();

    expect(rows(reg.slug).map((r) => r.action)).toEqual([
      "registration.create",
      "registration.update",
      "registration.confirm",
      "registration.draw",
      "registration.notify",
      "registration.delete",
      "registration.restore",
    ]);
  });

  it("a change that fails leaves no audit row", async () => {
    const first = await registered();
    const reg = await registered();
    const before = rows(reg.slug).length;
    const duplicate = updateRegistration(actor, reg.slug, { ...input(), engine_no: first.engine_no });
    expect(duplicate).toMatchObject({ ok: false, code: "invalid", errors: { engine_no: [M.engineTaken] } });
    expect(deleteRegistration(stranger, reg.slug)).toMatchObject({ ok: false, code: "not_found" });
    expect(await drawCoupon(actor, reg.slug)).toMatchObject({ ok: false, code: "conflict", message: M.notConfirmed });
    expect(notifyRegistration(actor, reg.slug)).toMatchObject({ ok: false, code: "conflict", message: M.notDrawn });
    const code = currentCode("registration", reg.id)!.code!;
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    expect(confirmRegistration(actor, reg.slug, wrong)).toMatchObject({ ok: false, code: "invalid" });
    expect(restoreRegistration(actor, reg.slug)).toMatchObject({ ok: false, code: "not_found" });
    expect(rows(reg.slug)).toHaveLength(before);

    // A create refused for a duplicate number writes no row either.
    const pre = makePreregistration({ is_verified: true, status: "verified", branch_id: branch.id });
    const refused = await createRegistration(actor, pre.slug, input({ chasis_no: first.chasis_no }));
    expect(refused).toMatchObject({ ok: false, code: "invalid" });
    const made = db
      .select()
      .from(schema.auditLog)
      .where(eq(schema.auditLog.action, "registration.create"))
      .orderBy(desc(schema.auditLog.id))
      .get()!;
    expect(made.entity_id).toBe(reg.slug);
  });

  it("an audit row that cannot be written undoes the change", async () => {
    const reg = await registered();
    db.$client.exec(`create temp trigger refuse_audit before insert on audit_log
      when new.action = 'registration.update' begin select raise(abort, 'audit refused'); end`);
    expect(() => updateRegistration(actor, reg.slug, { ...input(), name: "Never Saved" })).toThrow(/audit refused/);
    const row = db.select().from(schema.registrations).where(eq(schema.registrations.id, reg.id)).get()!;
    expect(row.name).toBe("Audited Buyer");
    expect(row.engine_no).toBe(reg.engine_no);
  });

  it("the code and the confirmation commit together: a failure after the code is checked leaves the code unused", async () => {
    const reg = await registered();
    const code = currentCode("registration", reg.id)!.code!;
    db.$client.exec(`create temp trigger refuse_audit before insert on audit_log
      when new.action = 'registration.confirm' begin select raise(abort, 'audit refused'); end`);
    expect(() => confirmRegistration(actor, reg.slug, code)).toThrow(/audit refused/);
    db.$client.exec("drop trigger refuse_audit");
    expect(currentCode("registration", reg.id)?.code).toBe(code);
    expect(confirm(reg.slug, reg.id).status).toBe("confirmed");
  });

  it("the coupon draw's prize summary is queued in the draw's transaction, not sent on the request", async () => {
    const reg = await registered({ send_sms: true });
    confirm(reg.slug, reg.id);
    const drawn = await drawCoupon(actor, reg.slug);
    expect(drawn.ok).toBe(true);
    const sms = db
      .select()
      .from(schema.smsMessages)
      .where(and(eq(schema.smsMessages.to, reg.phone), eq(schema.smsMessages.purpose, "notify")))
      .all();
    expect(sms).toHaveLength(1);
    expect(sms[0]).toMatchObject({ status: "queued", attempts: 0 });
    expect(sms[0].text).toContain(reg.coupon_code);

    // Without send_sms, nothing is queued.
    const quiet = await registered({ send_sms: false });
    confirm(quiet.slug, quiet.id);
    await drawCoupon(actor, quiet.slug);
    expect(
      db
        .select()
        .from(schema.smsMessages)
        .where(and(eq(schema.smsMessages.to, quiet.phone), eq(schema.smsMessages.purpose, "notify")))
        .all(),
    ).toHaveLength(0);
  });
});

describe("the audit trail of test rides", () => {
  it("a delete writes its row; another branch's delete is not found and writes nothing", () => {
    const ride = db
      .insert(schema.testRides)
      .values({
        slug: randomSlug(),
        first_name: "Audit",
        name: "Audit Rider",
        phone: "9841000001",
        bike_model_id: model.id,
        branch_id: branch.id,
        state: "Bagmati",
        district: "Bhaktapur",
        city: "Bhaktapur",
      })
      .returning()
      .get();
    const trail = () =>
      db
        .select()
        .from(schema.auditLog)
        .where(and(eq(schema.auditLog.entity_type, "test_ride"), eq(schema.auditLog.entity_id, ride.slug)))
        .all();
    expect(deleteTestRide(stranger, ride.slug)).toMatchObject({ ok: false, code: "not_found" });
    expect(trail()).toHaveLength(0);
    expect(deleteTestRide(actor, ride.slug)).toEqual({ ok: true });
    const [row] = trail();
    expect(row).toMatchObject({ action: "test_ride.delete", user_id: actor.id, address: "10.20.30.40" });
    expect(JSON.parse(row.changes).deleted_at.before).toBeNull();
    expect(deleteTestRide(actor, ride.slug)).toMatchObject({ ok: false, code: "not_found" });
    expect(trail()).toHaveLength(1);
  });
});
