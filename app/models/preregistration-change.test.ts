// "Wrong number? Change it" keeps the rules of a save: the one checker of pre-registration writes
// runs for it too, with the visitor's own entry left out of "phone taken". A rule dropped from
// the change (or the entry not left out) fails here.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { makeBikeModel, makeBranch, makePreregistration, nextPhone } from "../../tests/fixtures";
import { PREREGISTRATION_MESSAGES as M, publicPreregistrationSchema } from "~/schemas/preregistration";
import { changePreregistration } from "./preregistration-change.server";
import type { Visitor } from "./preregistration.server";
import { setSetting } from "./settings.server";

const VISITOR: Visitor = { channel: "public", address: null };

let branch: ReturnType<typeof makeBranch>;
let model: ReturnType<typeof makeBikeModel>;
let citizen = 8_100_000;
const nextCitizenship = () => String(citizen++ * 7);

beforeAll(() => {
  branch = makeBranch();
  model = makeBikeModel();
});

afterEach(() => setSetting("registration_open", true));

/** An unverified public entry, and the form's values for it with `over` changed. */
function entryAndValues(over: Record<string, unknown> = {}) {
  const entry = makePreregistration({
    phone: nextPhone(),
    citizenship_no: nextCitizenship(),
    nearest_branch_id: branch.id,
    is_verified: false,
    branch_id: null,
  });
  const value = publicPreregistrationSchema.parse({
    name: entry.name,
    address: "Baneshwor, Kathmandu",
    phone: entry.phone,
    citizenship_no: entry.citizenship_no,
    nearest_branch_id: String(branch.id),
    bike_model_id: String(model.id),
    ...over,
  });
  return { entry, value };
}

describe("changing an unverified public entry", () => {
  it("keeps its own phone: the entry is not 'taken' by itself", async () => {
    const { entry, value } = entryAndValues({ name: "Sita Sharma" });
    const changed = await changePreregistration(VISITOR, entry.slug, value);
    expect(changed).toMatchObject({ ok: true, phoneChanged: false });
    if (changed.ok) expect(changed.preregistration.name).toBe("Sita Sharma");
  });

  it("refuses a phone another entry holds", async () => {
    const other = makePreregistration({ phone: nextPhone(), citizenship_no: nextCitizenship() });
    const { entry, value } = entryAndValues({ phone: other.phone });
    expect(await changePreregistration(VISITOR, entry.slug, value)).toMatchObject({
      ok: false,
      errors: { phone: [M.phoneTaken] },
    });
  });

  it("refuses a citizenship/PAN with a pending purchase", async () => {
    const pending = makePreregistration({
      phone: nextPhone(),
      citizenship_no: nextCitizenship(),
      is_verified: true,
      purchased: false,
    });
    const { entry, value } = entryAndValues({ citizenship_no: pending.citizenship_no });
    expect(await changePreregistration(VISITOR, entry.slug, value)).toMatchObject({
      ok: false,
      errors: { citizenship_no: [M.pendingPurchase] },
    });
  });

  it("refuses a bike model that is not in the list, and any change once the campaign is closed", async () => {
    const { entry, value } = entryAndValues();
    const unknownModel = await changePreregistration(VISITOR, entry.slug, { ...value, bike_model_id: 987_654 });
    expect(unknownModel).toMatchObject({ ok: false, code: "invalid" });
    if (!unknownModel.ok) expect(Object.keys(unknownModel.errors)).toEqual(["bike_model_id"]);
    setSetting("registration_open", false);
    expect(await changePreregistration(VISITOR, entry.slug, value)).toMatchObject({ ok: false, code: "closed" });
  });
});
