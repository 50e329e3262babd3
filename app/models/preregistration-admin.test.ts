// The back office's pre-registration queries on a real SQLite copy: branch scope of lists and
// detail, phone and full-text search, filters, the download rows, the code shown only when
// allowed, edit rules and delete.
import { canSeeCodes } from "~/utils/permissions";
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { entryReference } from "@db/reference";
import { issueCodeIn } from "~/models/otp.server";
import type { ScopedActor } from "~/models/scope.server";
import { preregistrationFiltersSchema, preregistrationSearchParam } from "~/schemas/preregistration";
import { parseTableParams } from "~/utils/datatable.server";
import { parseQuery } from "~/http/query.server";
import { kathmanduDate } from "~/utils/time";
import { makeBikeModel, makeBranch, makePreregistration, nextPhone } from "../../tests/fixtures";
import {
  deletePreregistration,
  exportPreregistrations,
  findPreregistration,
  canOpenScreenshot,
  findAtCounter,
  getPreregistrationDetail,
  listPreregistrations,
  PREREGISTRATION_ADMIN_MESSAGES as M,
  preregistrationActions,
  updatePreregistration,
  type PreregistrationFilters,
} from "./preregistration-admin.server";
import { PREREGISTRATION_COLUMNS, screenColumns } from "./preregistration-columns";
import { clearOfKathmanduMidnight } from "../../tests/clock";

// These tests date pools and filters "today": none starts within 20 s of a Kathmandu midnight.
beforeEach(() => clearOfKathmanduMidnight(20_000));

let a: ReturnType<typeof makeBranch>;
let b: ReturnType<typeof makeBranch>;
let model: ReturnType<typeof makeBikeModel>;
const HEAD = { branchId: null };
const A = () => ({ branchId: a.id });
const B = () => ({ branchId: b.id });
const actor = (scope: { branchId: number | null }): ScopedActor => ({
  id: null,
  email: "staff@test",
  address: null,
  scope,
});

/** The list's filters as the page, the API and the download read them. */
const parse = (q: string) => {
  const params = new URLSearchParams(q);
  return parseQuery(params, preregistrationFiltersSchema, preregistrationSearchParam(params));
};
const list = (scope: { branchId: number | null }, filters: PreregistrationFilters = {}) =>
  listPreregistrations(scope, parseTableParams(new URLSearchParams({ length: "100" })), filters).data.map(
    (r) => r.slug,
  );

let madeAtA: ReturnType<typeof makePreregistration>;
let madeAtB: ReturnType<typeof makePreregistration>;
let publicNearA: ReturnType<typeof makePreregistration>;
let publicNearB: ReturnType<typeof makePreregistration>;

beforeAll(() => {
  a = makeBranch({ title: "Scope A", city: "Pokhara" });
  b = makeBranch({ title: "Scope B" });
  model = makeBikeModel("Scope Model");
  madeAtA = makePreregistration({
    branch_id: a.id,
    nearest_branch_id: a.id,
    name: "Aarati Maharjan",
    bike_model_id: model.id,
  });
  madeAtB = makePreregistration({ branch_id: b.id, nearest_branch_id: b.id, name: "Bibek Thapa" });
  publicNearA = makePreregistration({
    branch_id: null,
    nearest_branch_id: a.id,
    name: "Chandra Online",
    is_verified: true,
    status: "verified",
    prize: 7000,
  });
  publicNearB = makePreregistration({ branch_id: null, nearest_branch_id: b.id, name: "Dilmaya Online" });
});

describe("scope", () => {
  it("head office lists everything; a branch its own and the public ones naming it", () => {
    const head = list(HEAD);
    expect(head).toEqual(expect.arrayContaining([madeAtA.slug, madeAtB.slug, publicNearA.slug, publicNearB.slug]));
    const mine = list(A());
    expect(mine).toEqual(expect.arrayContaining([madeAtA.slug, publicNearA.slug]));
    expect(mine).not.toContain(madeAtB.slug);
    expect(mine).not.toContain(publicNearB.slug);
  });

  it("a branch opens by slug only what its lists show, never by a numeric id", () => {
    expect(findPreregistration(A(), madeAtA.slug)?.slug).toBe(madeAtA.slug);
    expect(findPreregistration(A(), publicNearA.slug)?.slug).toBe(publicNearA.slug);
    expect(findPreregistration(A(), publicNearB.slug)).toBeNull();
    expect(findPreregistration(A(), madeAtB.slug)).toBeNull();
    expect(findPreregistration(A(), String(madeAtA.id))).toBeNull();
    expect(findPreregistration(HEAD, String(madeAtA.id))).toBeNull();
  });

  it("a customer's full phone at the counter grants the public pre-registration to the branch, for later loads too", () => {
    const c = makeBranch({ title: "Scope C" });
    const walkIn = makePreregistration({ branch_id: null, nearest_branch_id: c.id, name: "Walk In" });
    expect(findPreregistration(A(), walkIn.slug)).toBeNull();
    expect(list(A(), { phone: walkIn.phone })).toEqual([]);
    findAtCounter(actor(A()), ` ${walkIn.phone} `);
    expect(list(A(), { phone: walkIn.phone })).toEqual([walkIn.slug]);
    expect(findPreregistration(A(), walkIn.slug)?.slug).toBe(walkIn.slug);
    expect(list(A())).toContain(walkIn.slug);
    // A part of the number grants nothing; another branch's own record is never granted.
    const other = makePreregistration({ branch_id: null, nearest_branch_id: c.id });
    findAtCounter(actor(A()), other.phone.slice(0, 8));
    expect(findPreregistration(A(), other.slug)).toBeNull();
    findAtCounter(actor(A()), madeAtB.phone);
    expect(findPreregistration(A(), madeAtB.slug)).toBeNull();
    expect(list(A(), { phone: madeAtB.phone })).toEqual([]);
  });

  it("every entry has a short case-free reference, set by the database; it finds only what the searcher reaches", () => {
    const c = makeBranch({ title: "Scope Ref" });
    const walkIn = makePreregistration({ branch_id: null, nearest_branch_id: c.id, name: "Reference Person" });
    const stored = db.select().from(schema.preregistrations).where(eq(schema.preregistrations.id, walkIn.id)).get()!;
    expect(stored.ref).toBe(entryReference(walkIn.slug));
    expect(stored.ref).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    // As staff type it: lower case, without its dashes, O for 0 and l for 1.
    const typed = stored.ref!.toLowerCase().replaceAll("-", "").replaceAll("0", "o").replaceAll("1", "l");
    expect(list(HEAD, { phone: typed })).toEqual([walkIn.slug]);
    expect(list(HEAD, { phone: stored.ref })).toEqual([walkIn.slug]);
    // The entry's own showroom finds it by it.
    expect(list({ branchId: c.id }, { phone: typed })).toEqual([walkIn.slug]);
    // The reference is public (/fair-draws lists it): another branch's search by it finds and grants nothing.
    expect(findAtCounter(actor(A()), typed)).toBeNull();
    expect(list(A(), { phone: typed })).toEqual([]);
    // Only the customer's full phone opens it to another branch.
    findAtCounter(actor(A()), walkIn.phone);
    expect(list(A(), { phone: typed })).toEqual([walkIn.slug]);
    // Another branch's own record is never granted, by its reference or its phone.
    findAtCounter(actor(A()), entryReference(madeAtB.slug));
    findAtCounter(actor(A()), madeAtB.phone);
    expect(list(A(), { phone: entryReference(madeAtB.slug) })).toEqual([]);
  });

  it("proof screenshots follow the same rule", () => {
    const file = db
      .insert(schema.files)
      .values({
        key: `shot-${Date.now()}-abcdefgh`,
        type: "screenshot",
        filename: "s",
        path: "x",
        mime: "image/webp",
        size: 1,
      })
      .returning()
      .get();
    const c = makeBranch({ title: "Scope D" });
    const pre = makePreregistration({ branch_id: null, nearest_branch_id: c.id, screenshot_id: file.id });
    expect(canOpenScreenshot({ branchId: c.id }, file.id)).toBe(true);
    expect(canOpenScreenshot(HEAD, file.id)).toBe(true);
    expect(canOpenScreenshot(A(), file.id)).toBe(false);
    findAtCounter(actor(A()), pre.phone);
    expect(canOpenScreenshot(A(), file.id)).toBe(true);
  });
});

describe("search and filters", () => {
  it("searches name, phone and citizenship substrings through the full-text index", () => {
    expect(list(HEAD, { phone: "arati mahar" })).toEqual([madeAtA.slug]);
    expect(list(HEAD, { phone: madeAtA.phone.slice(2, 8) })).toContain(madeAtA.slug);
    expect(list(HEAD, { phone: madeAtA.citizenship_no.slice(1, 6) })).toContain(madeAtA.slug);
    // A term without a word of 3 characters matches nothing here (its field refuses it, below): a
    // prefix match of it would read every row of the table.
    expect(list(A(), { phone: "Aa" })).toEqual([]);
    expect(list(HEAD, { phone: "ar ma" })).toEqual([]);
  });

  it("filters by model, branch, prize, status and Kathmandu dates", () => {
    expect(list(HEAD, { bike_model: model.id })).toEqual([madeAtA.slug]);
    expect(list(HEAD, { branch: b.id }).sort()).toEqual([madeAtB.slug, publicNearB.slug].sort());
    expect(list(HEAD, { prize: 7000 })).toContain(publicNearA.slug);
    expect(list(A(), { status: "verified" })).toEqual([publicNearA.slug]);
    const today = kathmanduDate();
    const todays = list(A(), { from: today, to: today });
    expect(todays).toEqual(expect.arrayContaining([madeAtA.slug, publicNearA.slug]));
    expect(todays.sort()).toEqual(list(A()).sort());
    expect(list(A(), { to: "2020-01-01" })).toEqual([]);
    // The page shows a bad filter's message and lists without it.
    expect(parse("phone=980&prize=abc&status=bogus&bike_model=2").value).toEqual({ phone: "980", bike_model: 2 });
  });

  it("a filter that is not one of its choices is a clear message at that filter", () => {
    expect(parse("phone=98").errors).toEqual({ phone: ["Type at least 3 letters or digits to search."] });
    expect(parse("phone=ab%20cd").errors).toEqual({ phone: ["Type at least 3 letters or digits to search."] });
    expect(parse("phone=%22ab%22").errors).toEqual({ phone: ["Type at least 3 letters or digits to search."] });
    expect(parse("phone=ab%20cde").errors).toEqual({});
    expect(parse("from=abc").errors).toEqual({ from: ["Enter the date as yyyy/MM/dd (or yyyy/MM/dd HH:mm)."] });
    expect(parse("bike_model=x").errors).toEqual({ bike_model: ["Choose a bike model from the list."] });
    expect(parse("status=bogus&prize=-1").errors).toEqual({
      status: ["Choose a status from the list."],
      prize: ["Choose a prize from the list."],
    });
    expect(parse("from=2026-11-22&to=2026-11-21").errors).toEqual({
      to: ["The end date must be on or after the start date."],
    });
    expect(Object.keys(parse("from=2026-02-30").errors)).toEqual(["from"]);
    expect(parse("from=2026-11-21&to=2026-11-21T10:00&search=ram")).toEqual({
      value: { from: "2026-11-21", to: "2026-11-21T10:00", phone: "ram" },
      errors: {},
    });
    // DataTables' search[value] and the spec's phone read the same.
    expect(parse("search%5Bvalue%5D=980").value).toEqual({ phone: "980" });
    expect(parse("phone=980").value).toEqual({ phone: "980" });
  });

  it("exports the same rows with the spreadsheet's columns", async () => {
    const rows = [];
    for await (const page of exportPreregistrations(A(), {})) rows.push(...page);
    expect(rows.map((r) => r.slug).sort()).toEqual(list(A()).sort());
    const headers = PREREGISTRATION_COLUMNS.map((c) => c.header);
    expect(headers).toEqual(expect.arrayContaining(["Name", "Phone", "Branch", "Nearest Branch", "City", "Prize"]));
    const near = rows.find((r) => r.slug === publicNearA.slug)!;
    expect(PREREGISTRATION_COLUMNS.find((c) => c.header === "City")!.value(near)).toBe("Pokhara");
    expect(PREREGISTRATION_COLUMNS.find((c) => c.header === "Branch")!.value(near)).toBe("");
    // The reference the customer reads aloud, as the entry's page shows it.
    expect(PREREGISTRATION_COLUMNS.find((c) => c.header === "Reference")!.value(near)).toBe(near.ref);
    expect(near.ref).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    // The screen shows a subset of the file's columns, in the file's order; head office sees three more.
    const keys = PREREGISTRATION_COLUMNS.map((c) => c.key);
    for (const headOffice of [false, true]) {
      const shown = screenColumns(headOffice).map((c) => keys.indexOf(c.key));
      expect(shown).toEqual([...shown].sort((x, y) => x - y));
    }
    expect(screenColumns(true).length - screenColumns(false).length).toBe(3);
    expect(typeof near.verified).toBe("boolean");
  });
});

describe("detail", () => {
  it("shows the latest code only when asked (staff who may see codes)", async () => {
    const pre = makePreregistration({ branch_id: a.id });
    db.transaction((tx) =>
      issueCodeIn(tx, {
        purpose: "preregistration",
        subjectId: pre.id,
        phone: pre.phone,
        text: (c) => `code ${c}`,
        sender: "staff",
        smsPurpose: "otp",
      }),
    );
    expect(getPreregistrationDetail(A(), pre.slug)?.code).toBeNull();
    expect(getPreregistrationDetail(A(), pre.slug, { showCode: true })?.code).toMatch(/^\d{6}$/);
    expect(canSeeCodes({ permissions: ["read-user"] })).toBe(true);
    expect(canSeeCodes({ permissions: ["create-user"] })).toBe(true);
    expect(canSeeCodes({ permissions: ["read-registration"] })).toBe(false);
  });

  it("offers the actions the state allows", () => {
    expect(preregistrationActions({ is_verified: false, purchased: false, registration: null })).toMatchObject({
      verify: true,
      register: false,
      viewRegistration: false,
      delete: true,
    });
    expect(preregistrationActions({ is_verified: true, purchased: false, registration: null })).toMatchObject({
      verify: false,
      register: true,
      viewRegistration: false,
    });
    expect(preregistrationActions({ is_verified: true, purchased: true, registration: { slug: "x" } })).toMatchObject({
      register: false,
      viewRegistration: true,
      edit: false,
      delete: false,
    });
  });
});

describe("changes", () => {
  const base = { name: "Edited Name", address: "New Address", citizenship_no: "99887766" };

  it("an edit keeps the model and showroom the entry already names, though retired or closed since", async () => {
    const oldModel = makeBikeModel();
    const nearest = makeBranch();
    const entry = makePreregistration({ branch_id: a.id, bike_model_id: oldModel.id, nearest_branch_id: nearest.id });
    db.update(schema.bikeModels)
      .set({ retired_at: "2026-01-01T00:00:00Z" })
      .where(eq(schema.bikeModels.id, oldModel.id))
      .run();
    db.update(schema.branches)
      .set({ closed_at: "2026-01-01T00:00:00Z" })
      .where(eq(schema.branches.id, nearest.id))
      .run();
    const same = { ...base, bike_model_id: oldModel.id, nearest_branch_id: nearest.id };
    expect(await updatePreregistration(actor(A()), entry.slug, same)).toMatchObject({ ok: true });
    // Choosing them anew is refused.
    const other = makePreregistration({ branch_id: a.id });
    expect(await updatePreregistration(actor(A()), other.slug, same)).toMatchObject({
      ok: false,
      errors: { bike_model_id: expect.any(Array), nearest_branch_id: expect.any(Array) },
    });
  });

  it("edits within the scope; a verified phone cannot change, a taken one is refused", async () => {
    const unverified = makePreregistration({ branch_id: a.id });
    const taken = makePreregistration({ branch_id: a.id });
    expect(await updatePreregistration(actor(A()), unverified.slug, { ...base, phone: taken.phone })).toMatchObject({
      ok: false,
      code: "invalid",
      errors: { phone: [M.phoneTaken] },
    });
    const newPhone = nextPhone();
    expect(await updatePreregistration(actor(A()), unverified.slug, { ...base, phone: newPhone })).toMatchObject({
      ok: true,
      row: { name: "Edited Name", phone: newPhone },
    });
    const verified = makePreregistration({ branch_id: a.id, is_verified: true, status: "verified" });
    expect(await updatePreregistration(actor(A()), verified.slug, { ...base, phone: nextPhone() })).toMatchObject({
      ok: false,
      errors: { phone: [M.phoneLocked] },
    });
    expect(await updatePreregistration(actor(A()), verified.slug, { ...base, phone: verified.phone })).toMatchObject({
      ok: true,
    });
    expect(await updatePreregistration(actor(B()), unverified.slug, base)).toMatchObject({
      ok: false,
      code: "not_found",
    });
    const bought = makePreregistration({ branch_id: a.id, is_verified: true, purchased: true, status: "purchased" });
    expect(await updatePreregistration(actor(A()), bought.slug, base)).toMatchObject({
      ok: false,
      code: "conflict",
      message: M.purchasedNoEdit,
    });
  });

  it("keeps what a partial update leaves out, clears what a full form empties; head office moves branches", async () => {
    const pre = makePreregistration({
      branch_id: a.id,
      email: "keep@example.com",
      note: "keep",
      bike_model_id: model.id,
    });
    const partial = await updatePreregistration(actor(A()), pre.slug, { note: "Evening calls", branch_id: b.id });
    expect(partial).toMatchObject({
      ok: true,
      row: { note: "Evening calls", email: "keep@example.com", bike_model_id: model.id, branch_id: a.id },
    });
    const cleared = await updatePreregistration(actor(A()), pre.slug, { email: null, bike_model_id: null });
    expect(cleared).toMatchObject({ ok: true, row: { email: null, bike_model_id: null, note: "Evening calls" } });
    expect(await updatePreregistration(actor(HEAD), pre.slug, { branch_id: 999999 })).toMatchObject({
      ok: false,
      errors: { branch_id: ["Choose the branch this pre-registration belongs to."] },
    });
    expect(await updatePreregistration(actor(HEAD), pre.slug, { bike_model_id: 999999 })).toMatchObject({
      ok: false,
      errors: { bike_model_id: ["Please choose a bike model from the list."] },
    });
    expect(await updatePreregistration(actor(HEAD), pre.slug, { branch_id: b.id })).toMatchObject({
      ok: true,
      row: { branch_id: b.id },
    });
    const audited = db
      .select()
      .from(schema.auditLog)
      .where(eq(schema.auditLog.entity_id, pre.slug))
      .all()
      .map((r) => [r.action, Object.keys(JSON.parse(r.changes)).sort()]);
    expect(audited).toEqual([
      ["preregistration.update", ["note"]],
      ["preregistration.update", ["bike_model_id", "email"]],
      ["preregistration.update", ["branch_id"]],
    ]);
  });

  it("the search index follows an edit", async () => {
    const pre = makePreregistration({ branch_id: a.id, name: "Oldname Person" });
    await updatePreregistration(actor(A()), pre.slug, { ...base, name: "Freshname Person" });
    expect(list(A(), { phone: "oldname" })).not.toContain(pre.slug);
    expect(list(A(), { phone: "freshname" })).toContain(pre.slug);
  });

  it("deletes softly inside the scope, but never a purchased one; audited", () => {
    const pre = makePreregistration({ branch_id: a.id });
    expect(deletePreregistration(actor(B()), pre.slug)).toMatchObject({ ok: false, code: "not_found" });
    expect(deletePreregistration(actor(A()), pre.slug)).toEqual({ ok: true });
    expect(db.select().from(schema.auditLog).where(eq(schema.auditLog.entity_id, pre.slug)).get()?.action).toBe(
      "preregistration.delete",
    );
    expect(findPreregistration(A(), pre.slug)).toBeNull();
    expect(
      db.select().from(schema.preregistrations).where(eq(schema.preregistrations.id, pre.id)).get()?.deleted_at,
    ).toBeTruthy();
    const bought = makePreregistration({ branch_id: a.id, is_verified: true, purchased: true, status: "purchased" });
    expect(deletePreregistration(actor(A()), bought.slug)).toMatchObject({
      ok: false,
      code: "conflict",
      message: M.purchasedNoDelete,
    });
  });
});
