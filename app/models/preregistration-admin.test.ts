// The back office's pre-registration queries on a real SQLite copy: branch scope of lists and
// detail, phone and full-text search, filters, the download rows, the code shown only when
// allowed, edit rules and delete.
import { canSeeCodes } from "~/utils/permissions";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { issueCode } from "~/models/otp.server";
import { parseTableParams } from "~/utils/datatable.server";
import { kathmanduDate } from "~/utils/time";
import { makeBikeModel, makeBranch, makePreregistration, nextPhone } from "../../tests/fixtures";
import {
  dateBounds,
  deletePreregistration,
  exportPreregistrations,
  findPreregistration,
  ftsQuery,
  getPreregistrationDetail,
  listPreregistrations,
  PREREGISTRATION_ADMIN_MESSAGES as M,
  PREREGISTRATION_COLUMNS,
  preregistrationActions,
  readPreregistrationFilters,
  resolvePreregistrationKey,
  updatePreregistration,
  type PreregistrationFilters,
} from "./preregistration-admin.server";

let a: ReturnType<typeof makeBranch>;
let b: ReturnType<typeof makeBranch>;
let model: ReturnType<typeof makeBikeModel>;
const HEAD = { branchId: null };
const A = () => ({ branchId: a.id });
const B = () => ({ branchId: b.id });

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

  it("a branch opens public pre-registrations by slug but never another branch's", () => {
    expect(findPreregistration(A(), madeAtA.slug)?.slug).toBe(madeAtA.slug);
    expect(findPreregistration(A(), publicNearB.slug)?.slug).toBe(publicNearB.slug);
    expect(findPreregistration(A(), madeAtB.slug)).toBeNull();
    expect(resolvePreregistrationKey(A(), String(madeAtB.id))).toBe(String(madeAtB.id));
    expect(resolvePreregistrationKey(A(), String(madeAtA.id))).toBe(madeAtA.slug);
  });

  it("a customer's full phone finds a public pre-registration made for another showroom", () => {
    expect(list(A(), { phone: publicNearB.phone })).toEqual([publicNearB.slug]);
    // but never another branch's own record
    expect(list(A(), { phone: madeAtB.phone })).toEqual([]);
  });
});

describe("search and filters", () => {
  it("searches name, phone and citizenship substrings through the full-text index", () => {
    expect(ftsQuery("ab")).toBeNull();
    expect(ftsQuery('ram "x" thapa')).toBe('"ram" "thapa"');
    expect(list(HEAD, { phone: "arati mahar" })).toEqual([madeAtA.slug]);
    expect(list(HEAD, { phone: madeAtA.phone.slice(2, 8) })).toContain(madeAtA.slug);
    expect(list(HEAD, { phone: madeAtA.citizenship_no.slice(1, 6) })).toContain(madeAtA.slug);
    // short terms fall back to a prefix match
    expect(list(A(), { phone: "Aa" })).toEqual([madeAtA.slug]);
  });

  it("filters by model, branch, prize, status and Kathmandu dates", () => {
    expect(list(HEAD, { bike_model: model.id })).toEqual([madeAtA.slug]);
    expect(list(HEAD, { branch: b.id }).sort()).toEqual([madeAtB.slug, publicNearB.slug].sort());
    expect(list(HEAD, { prize: 7000 })).toContain(publicNearA.slug);
    expect(list(A(), { status: "verified" })).toEqual([publicNearA.slug]);
    const today = kathmanduDate();
    expect(list(A(), { from: today, to: today }).sort()).toEqual([madeAtA.slug, publicNearA.slug].sort());
    expect(list(A(), { to: "2020-01-01" })).toEqual([]);
    expect(dateBounds("2026-11-21", "2026-11-21")).toEqual({
      from: "2026-11-20T18:15:00.000Z",
      to: "2026-11-21T18:15:00.000Z",
    });
    expect(
      readPreregistrationFilters(new URLSearchParams("phone=98&prize=abc&status=bogus&bike_model=2")),
    ).toMatchObject({
      phone: "98",
      prize: null,
      status: null,
      bike_model: 2,
    });
  });

  it("exports the same rows with the spreadsheet's columns", () => {
    const rows = [...exportPreregistrations(A(), {})];
    expect(rows.map((r) => r.slug).sort()).toEqual(list(A()).sort());
    const headers = PREREGISTRATION_COLUMNS.map((c) => c.header);
    expect(headers).toEqual(expect.arrayContaining(["Name", "Phone", "Branch", "Nearest Branch", "City", "Prize"]));
    const near = rows.find((r) => r.slug === publicNearA.slug)!;
    expect(PREREGISTRATION_COLUMNS.find((c) => c.header === "City")!.value(near)).toBe("Pokhara");
    expect(PREREGISTRATION_COLUMNS.find((c) => c.header === "Branch")!.value(near)).toBe("");
  });
});

describe("detail", () => {
  it("shows the latest code only when asked (staff who may see codes)", async () => {
    const pre = makePreregistration({ branch_id: a.id });
    await issueCode({
      purpose: "preregistration",
      subjectId: pre.id,
      phone: pre.phone,
      text: (c) => `code ${c}`,
      smsPurpose: "otp",
    });
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

  it("edits within the scope; a verified phone cannot change, a taken one is refused", () => {
    const unverified = makePreregistration({ branch_id: a.id });
    const taken = makePreregistration({ branch_id: a.id });
    expect(updatePreregistration(A(), unverified.slug, { ...base, phone: taken.phone })).toMatchObject({
      ok: false,
      errors: { phone: [M.phoneTaken] },
    });
    const newPhone = nextPhone();
    expect(updatePreregistration(A(), unverified.slug, { ...base, phone: newPhone })).toMatchObject({
      ok: true,
      row: { name: "Edited Name", phone: newPhone },
    });
    const verified = makePreregistration({ branch_id: a.id, is_verified: true, status: "verified" });
    expect(updatePreregistration(A(), verified.slug, { ...base, phone: nextPhone() })).toMatchObject({
      ok: false,
      errors: { phone: [M.phoneLocked] },
    });
    expect(updatePreregistration(A(), verified.slug, { ...base, phone: verified.phone })).toMatchObject({ ok: true });
    expect(updatePreregistration(B(), unverified.slug, base)).toMatchObject({ ok: false, status: 404 });
  });

  it("the search index follows an edit", () => {
    const pre = makePreregistration({ branch_id: a.id, name: "Oldname Person" });
    updatePreregistration(A(), pre.slug, { ...base, name: "Freshname Person" });
    expect(list(A(), { phone: "oldname" })).not.toContain(pre.slug);
    expect(list(A(), { phone: "freshname" })).toContain(pre.slug);
  });

  it("deletes softly inside the scope, but never a purchased one", () => {
    const pre = makePreregistration({ branch_id: a.id });
    expect(deletePreregistration(B(), pre.slug)).toMatchObject({ ok: false, status: 404 });
    expect(deletePreregistration(A(), pre.slug)).toEqual({ ok: true });
    expect(findPreregistration(A(), pre.slug)).toBeNull();
    expect(
      db.select().from(schema.preregistrations).where(eq(schema.preregistrations.id, pre.id)).get()?.deleted_at,
    ).toBeTruthy();
    const bought = makePreregistration({ branch_id: a.id, is_verified: true, purchased: true, status: "purchased" });
    expect(deletePreregistration(A(), bought.slug)).toMatchObject({
      ok: false,
      status: 409,
      message: M.purchasedNoDelete,
    });
  });
});
