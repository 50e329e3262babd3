/**
 * A counter grant reads, it does not rule (decision 5): a branch that reached another showroom's
 * public entry by the customer's full phone may open it, verify it with the customer's code and
 * register the purchase; it may not change the entry (its phone above all) or delete it, in the
 * model, the page and the API. The entry's own branch and head office still may.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { currentCode } from "~/models/otp.server";
import {
  deletePreregistration,
  findAtCounter,
  findPreregistration,
  updatePreregistration,
} from "~/models/preregistration-admin.server";
import { resendVerificationCode, verifyPreregistration } from "~/models/preregistration-verify.server";
import { createRegistration } from "~/models/registration.server";
import type { ScopedActor } from "~/models/scope.server";
import { loader as prePage } from "~/routes/admin.preregistration.$slug._index";
import { action as preWrite } from "~/routes/api.v1.preregistration.$id";
import type { RegistrationInput } from "~/schemas/registration";
import { makeBikeModel, makeBranch, makePreregistration, nextPhone } from "../fixtures";
import { call, req, staffWith } from "../route-helpers";

let own = 0;
let counter = 0;
let model = 0;
const actorAt = (branchId: number | null, id: number | null = null): ScopedActor => ({
  id,
  email: "staff@example.test",
  address: null,
  scope: { branchId },
});

beforeAll(() => {
  own = makeBranch().id;
  counter = makeBranch().id;
  model = makeBikeModel().id;
});

/** A public entry naming `own` as nearest showroom, found at the other branch's counter by its phone. */
function grantedEntry(over: Parameters<typeof makePreregistration>[0] = {}) {
  const entry = makePreregistration({ branch_id: null, nearest_branch_id: own, ...over });
  findAtCounter(actorAt(counter), entry.phone);
  expect(findPreregistration({ branchId: counter }, entry.slug)?.slug).toBe(entry.slug);
  return entry;
}

describe("a branch that found a public entry at its counter", () => {
  it("may not change its phone (nor anything else) or delete it", async () => {
    const entry = grantedEntry();
    const change = await updatePreregistration(actorAt(counter), entry.slug, { phone: nextPhone() });
    expect(change).toMatchObject({ ok: false, code: "forbidden" });
    const rename = await updatePreregistration(actorAt(counter), entry.slug, { name: "Someone Else" });
    expect(rename).toMatchObject({ ok: false, code: "forbidden" });
    expect(deletePreregistration(actorAt(counter), entry.slug)).toMatchObject({ ok: false, code: "forbidden" });
    const still = findPreregistration({ branchId: null }, entry.slug)!;
    expect(still).toMatchObject({ phone: entry.phone, name: entry.name });
  });

  it("may send its code to its own phone, verify it with the customer's code and register the purchase", async () => {
    const entry = grantedEntry();
    const counterActor = actorAt(counter);
    expect(resendVerificationCode({ channel: "counter", actor: counterActor }, entry.slug).ok).toBe(true);
    const code = currentCode("preregistration", entry.id)!.code!;
    const verified = await verifyPreregistration({ channel: "counter", actor: counterActor }, entry.slug, code);
    expect(verified.ok).toBe(true);
    const bought = await createRegistration(counterActor, entry.slug, {
      bill_no: `G${entry.id}`,
      name: "Walk In",
      address: "Kathmandu",
      citizenship_no: "1234",
      bike_model_id: model,
      engine_no: `GE${entry.id}`,
      chasis_no: `GC${entry.id}`,
      registration_no: `GR${entry.id}`,
      payment_mode: "CASH",
      send_sms: false,
    } as unknown as RegistrationInput);
    expect(bought.ok).toBe(true);
  });

  it("its detail page offers no edit and no delete, and the API answers 403", async () => {
    const entry = grantedEntry();
    const manager = await staffWith(["read-registration", "create-registration", "delete-registration"], counter);
    const page = await call(
      prePage as never,
      req("GET", `/admin/preregistration/${entry.slug}`, { headers: { Cookie: manager.cookie } }),
      { slug: entry.slug },
    );
    const { actions } = (await page.json()) as { actions: { edit: boolean; delete: boolean; verify: boolean } };
    expect(actions).toMatchObject({ edit: false, delete: false, verify: true });
    const del = await call(
      preWrite as never,
      req("DELETE", `/api/v1/preregistration/${entry.slug}`, { token: manager.token }),
      { id: entry.slug },
    );
    expect(del.status).toBe(403);
  });
});

describe("the entry's own branch and head office", () => {
  it("still change and delete it", async () => {
    const entry = grantedEntry();
    const phone = nextPhone();
    expect((await updatePreregistration(actorAt(own), entry.slug, { phone })).ok).toBe(true);
    expect(deletePreregistration(actorAt(own), entry.slug).ok).toBe(true);
    const other = grantedEntry();
    expect(deletePreregistration(actorAt(null), other.slug).ok).toBe(true);
  });
});
