/**
 * A deleted entry frees its phone (decision 5): the same phone pre-registers again on the public
 * form and at the counter. A verified entry (its prize drawn) cannot be deleted, so no phone is ever
 * drawn twice; one deleted before that rule keeps its phone.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { deletePreregistration, preregistrationActions } from "~/models/preregistration-admin.server";
import { createPreregistration } from "~/models/preregistration.server";
import { SYSTEM_ACTOR, type ScopedActor } from "~/models/scope.server";
import {
  counterPreregistrationSchema,
  PREREGISTRATION_MESSAGES,
  publicPreregistrationSchema,
} from "~/schemas/preregistration";
import { makeBranch, makePreregistration, nextPhone } from "../fixtures";

let branch = 0;
beforeAll(() => {
  branch = makeBranch().id;
});

const fields = (phone: string) => ({
  name: "Returning Visitor",
  address: "Kathmandu",
  phone,
  citizenship_no: `C-${phone}`,
  nearest_branch_id: String(branch),
});
let n = 0;
const visitor = () => ({ channel: "public" as const, address: `203.0.113.${++n}` });
const counter = (): { channel: "counter"; actor: ScopedActor } => ({
  channel: "counter",
  actor: { id: null, email: "staff@example.test", address: null, scope: { branchId: branch } },
});

describe("a deleted entry", () => {
  it("frees its phone for the public form and for the counter", async () => {
    const phone = nextPhone();
    const first = await createPreregistration(visitor(), publicPreregistrationSchema.parse(fields(phone)));
    if (!first.ok) throw new Error(first.message);
    expect(deletePreregistration(SYSTEM_ACTOR, first.preregistration.slug)).toEqual({ ok: true });

    const again = await createPreregistration(visitor(), publicPreregistrationSchema.parse(fields(phone)));
    if (!again.ok) throw new Error(again.message);
    expect(again.preregistration.id).not.toBe(first.preregistration.id);

    expect(deletePreregistration(SYSTEM_ACTOR, again.preregistration.slug)).toEqual({ ok: true });
    const atCounter = await createPreregistration(counter(), counterPreregistrationSchema.parse(fields(phone)));
    expect(atCounter.ok).toBe(true);
  });
});

describe("a verified entry, its prize drawn", () => {
  it("cannot be deleted, and its detail offers no Delete", () => {
    const drawn = makePreregistration({ is_verified: true, status: "verified", prize: 5000 });
    expect(deletePreregistration(SYSTEM_ACTOR, drawn.slug)).toMatchObject({ ok: false, code: "conflict" });
    expect(preregistrationActions({ is_verified: true, purchased: false, registration: null }).delete).toBe(false);
    expect(preregistrationActions({ is_verified: false, purchased: false, registration: null }).delete).toBe(true);
  });

  it("deleted before this rule, still holds its phone", async () => {
    const phone = nextPhone();
    makePreregistration({ phone, is_verified: true, deleted_at: new Date().toISOString() });
    const refused = await createPreregistration(visitor(), publicPreregistrationSchema.parse(fields(phone)));
    expect(refused).toMatchObject({
      ok: false,
      errors: { phone: [PREREGISTRATION_MESSAGES.phoneTaken] },
    });
  });
});
