/**
 * The SMS outbox by reach: a branch user sees, counts and sends again only the messages of its own
 * branch's customers (its pre-registrations' codes, made at its counter or naming it as nearest
 * showroom; its registrations' purchase codes and prize notices; broadcasts sent within its scope);
 * staff password-reset messages only a full administrator sees; a coupon in a notice only a viewer
 * who may read registrations. The page and its "Send again" follow the same rule.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { outboxPage, retryOutboxMessage, type OutboxViewer } from "~/models/sms-outbox.server";
import { queueMessage } from "~/models/sms.server";
import { HEAD_OFFICE } from "~/models/scope.server";
import { action as outboxAction, loader as outboxLoader } from "~/routes/admin.outbox";
import { parseTableParams } from "~/utils/datatable.server";
import { PERMISSIONS } from "~/utils/permissions";
import { makeBranch, makePreregistration, nextPhone } from "../fixtures";
import { makeRegistration } from "../referral-fixtures";
import { call, req, staffWith } from "../route-helpers";

const params = () => parseTableParams(new URLSearchParams({ length: "100" }));
let a = 0;
let b = 0;
const mine: Record<string, number> = {};
const theirs: Record<string, number> = {};
let reset = 0;
let headOfficeBroadcast = 0;

function message(purpose: string, subjectId: number | null, text: string, broadcastId: number | null = null) {
  const m = queueMessage(db, { to: nextPhone(), text, purpose: purpose as never, subjectId, broadcastId });
  // Failed, so "Send again" applies where the purpose allows it.
  db.update(schema.smsMessages).set({ status: "failed", attempts: 1 }).where(eq(schema.smsMessages.id, m.id)).run();
  return m.id;
}

function broadcast(scope: number | null) {
  return db
    .insert(schema.smsBroadcasts)
    .values({ type: "MOBILE", text: "Offer", scope_branch_id: scope, prepared_at: new Date().toISOString() })
    .returning()
    .get().id;
}

beforeAll(() => {
  a = makeBranch().id;
  b = makeBranch().id;
  for (const [branch, into] of [
    [a, mine],
    [b, theirs],
  ] as const) {
    into.counterCode = message("otp", makePreregistration({ branch_id: branch }).id, "Your code is 111111");
    into.publicCode = message("otp", makePreregistration({ nearest_branch_id: branch }).id, "Your code is 222222");
    const reg = makeRegistration(branch, { status: "drawn", coupon_code: `TH-${branch}ABCD` });
    into.purchaseCode = message("purchase-code", reg.id, "Purchase code 333333");
    into.notice = message("notify", reg.id, `Coupon TH-${branch}ABCD worth Rs 5000`);
    into.broadcast = message("broadcast", null, "Offer", broadcast(branch));
  }
  reset = message("password-reset", 1, "Reset code 444444");
  headOfficeBroadcast = message("broadcast", null, "Offer", broadcast(null));
});

const viewer = (permissions: readonly string[], branchId: number | null): OutboxViewer => ({
  permissions,
  scope: branchId === null ? HEAD_OFFICE : { branchId },
});
const ids = (v: OutboxViewer) => outboxPage(v, params()).data.map((m) => m.id);

describe("the outbox by reach", () => {
  it("a branch user sees only its own branch's customers' messages, and counts only those", () => {
    const seen = ids(viewer(["send-sms", "read-registration"], a));
    expect(new Set(seen)).toEqual(new Set(Object.values(mine)));
    const page = outboxPage(viewer(["send-sms"], a), params());
    expect(page.recordsTotal).toBe(Object.values(mine).length);
    expect(page.recordsFiltered).toBe(Object.values(mine).length);
  });

  it("head office sees every customer message; staff password resets only as a full administrator", () => {
    const everyone = [...Object.values(mine), ...Object.values(theirs), headOfficeBroadcast];
    const office = ids(viewer(["send-sms"], null));
    expect(office).toEqual(expect.arrayContaining(everyone));
    expect(office).not.toContain(reset);
    expect(ids(viewer(PERMISSIONS, null))).toContain(reset);
    expect(ids(viewer(PERMISSIONS, a))).not.toContain(reset);
  });

  it("a coupon in a notice is shown only to a viewer who may read registrations", () => {
    const text = (v: OutboxViewer) => outboxPage(v, params()).data.find((m) => m.id === mine.notice)!.text;
    expect(text(viewer(["send-sms", "read-registration"], a))).toBe(`Coupon TH-${a}ABCD worth Rs 5000`);
    expect(text(viewer(["send-sms"], a))).not.toContain(`TH-${a}ABCD`);
    expect(text(viewer(["send-sms"], a))).toMatch(/^Coupon TH-•+ worth Rs 5000$/);
  });

  it("a branch user sends again only its own branch's failed messages", () => {
    const actor = { id: null, email: "a@example.test", address: null, ...viewer(["send-sms"], a) };
    expect(retryOutboxMessage(actor, theirs.notice)).toMatchObject({ ok: false, code: "not_found" });
    expect(retryOutboxMessage(actor, theirs.broadcast)).toMatchObject({ ok: false, code: "not_found" });
    expect(retryOutboxMessage(actor, mine.notice).ok).toBe(true);
  });
});

describe("/admin/outbox follows the same rule", () => {
  it("lists and sends again by the signed-in user's reach", async () => {
    const manager = await staffWith(["send-sms"], a);
    const page = await call(
      outboxLoader as never,
      req("GET", "/admin/outbox?length=100", { headers: { Cookie: manager.cookie } }),
    );
    const listed = ((await page.json()) as { data: { id: number }[] }).data.map((m) => m.id);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((id) => Object.values(mine).includes(id))).toBe(true);
    const other = await call(
      outboxAction as never,
      req("POST", "/admin/outbox", {
        headers: { Cookie: manager.cookie, Origin: "http://localhost" },
        form: new URLSearchParams({ intent: "retry", id: String(theirs.broadcast) }),
      }),
    );
    expect(other.status).toBe(302);
    const row = db.select().from(schema.smsMessages).where(eq(schema.smsMessages.id, theirs.broadcast)).get()!;
    expect(row.status).toBe("failed");
  });
});
