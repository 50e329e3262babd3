// A branch user cannot read or change another branch's record through a guessed slug, in the page or the API; a sequential number addresses nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { db, schema } from "@db/index";
import { action as loginAction } from "~/routes/login";
import { action as detailAction, loader as detailLoader } from "~/routes/admin.test-ride.$slug";
import { loader as listLoader } from "~/routes/admin.test-ride._index";
import { action as apiDeleteAction, loader as apiDetailLoader } from "~/routes/api.v1.test-ride.$id";
import { loader as apiListLoader } from "~/routes/api.v1.test-ride";
import { loader as downloadLoader } from "~/routes/api.v1.test-ride.download";
import { issueToken } from "~/http/api.server";
import { randomSlug } from "~/utils/crypto.server";
import XLSX from "sheetjs-style";
import { makeBikeModel, makeBranch, makeUser } from "../fixtures";
import { responseOf } from "../route-helpers";

const ctx = { clientAddress: "10.5.0.1" };

function ride(branchId: number, modelId: number, name: string) {
  return db
    .insert(schema.testRides)
    .values({
      slug: randomSlug(),
      first_name: name,
      name,
      phone: "9841000000",
      bike_model_id: modelId,
      branch_id: branchId,
      state: "Bagmati",
      district: "Kathmandu",
      city: "Kathmandu",
    })
    .returning()
    .get();
}

let mine: ReturnType<typeof ride>;
let theirs: ReturnType<typeof ride>;
let cookie: string;
let token: string;
let adminToken: string;

beforeAll(async () => {
  const a = makeBranch({ title: "Branch A" });
  const b = makeBranch({ title: "Branch B" });
  const model = makeBikeModel();
  mine = ride(a.id, model.id, "Mine Customer");
  theirs = ride(b.id, model.id, "Their Customer");
  const user = await makeUser("branch-manager", a.id);
  const admin = await makeUser("super-admin", null);
  const res = (await loginAction({
    request: new Request("http://localhost/login", {
      method: "POST",
      body: new URLSearchParams({ email: user.email, password: user.password }),
    }),
    context: ctx,
    params: {},
  })) as Response;
  cookie = (res.headers.get("Set-Cookie") ?? "").split(";")[0];
  token = issueToken(user.id, false).token;
  adminToken = issueToken(admin.id, false).token;
});

const page = (path: string, init: RequestInit = {}) =>
  new Request(`http://localhost${path}`, { ...init, headers: { Cookie: cookie, ...(init.headers ?? {}) } });
const api = (path: string, init: RequestInit = {}, t = token) =>
  new Request(`http://localhost${path}`, { ...init, headers: { Authorization: `Bearer ${t}` } });

describe("branch scope", () => {
  it("the page opens its own branch's record and 404s on another branch's slug", async () => {
    expect(
      (
        await responseOf(
          detailLoader({ request: page(`/admin/test-ride/${mine.slug}`), context: ctx, params: { slug: mine.slug } }),
        )
      ).status,
    ).toBe(200);
    const res = await responseOf(
      detailLoader({ request: page(`/admin/test-ride/${theirs.slug}`), context: ctx, params: { slug: theirs.slug } }),
    );
    expect(res.status).toBe(404);
  });

  it("a booking's sequential number is not an address: its own branch's record by numeric id is 404 in page and API", async () => {
    const id = String(mine.id);
    const pageRes = await responseOf(
      detailLoader({ request: page(`/admin/test-ride/${id}`), context: ctx, params: { slug: id } }),
    );
    expect(pageRes.status).toBe(404);
    const apiRes = await responseOf(
      apiDetailLoader({ request: api(`/api/v1/test-ride/${id}`), context: ctx, params: { id } }),
    );
    expect(apiRes.status).toBe(404);
    expect(await apiRes.json()).toEqual({ message: "Test ride not found." });
    const adminRes = await responseOf(
      apiDetailLoader({ request: api(`/api/v1/test-ride/${id}`, {}, adminToken), context: ctx, params: { id } }),
    );
    expect(adminRes.status).toBe(404);
    const del = await responseOf(
      apiDeleteAction({ request: api(`/api/v1/test-ride/${id}`, { method: "DELETE" }), context: ctx, params: { id } }),
    );
    expect(del.status).toBe(404);
    const pageDel = await responseOf(
      detailAction({
        request: page(`/admin/test-ride/${id}`, { method: "POST", body: new URLSearchParams({ intent: "delete" }) }),
        context: ctx,
        params: { slug: id },
      }),
    );
    expect(pageDel.status).toBe(404);
    expect(db.select().from(schema.testRides).where(eq(schema.testRides.id, mine.id)).get()?.deleted_at).toBeNull();
    // The same record by its slug is there.
    const bySlug = await responseOf(
      apiDetailLoader({ request: api(`/api/v1/test-ride/${mine.slug}`), context: ctx, params: { id: mine.slug } }),
    );
    expect((await bySlug.json()).data.slug).toBe(mine.slug);
  });

  it("the page cannot delete another branch's record", async () => {
    const res = await responseOf(
      detailAction({
        request: page(`/admin/test-ride/${theirs.slug}`, {
          method: "POST",
          body: new URLSearchParams({ intent: "delete" }),
        }),
        context: ctx,
        params: { slug: theirs.slug },
      }),
    );
    expect(res.status).toBe(404);
    expect(db.select().from(schema.testRides).where(eq(schema.testRides.id, theirs.id)).get()?.deleted_at).toBeNull();
  });

  it("the list shows only its branch", async () => {
    const res = await responseOf(listLoader({ request: page("/admin/test-ride"), context: ctx, params: {} }));
    const names = ((await res.json()).table.data as { name: string }[]).map((r) => r.name);
    expect(names).toContain("Mine Customer");
    expect(names).not.toContain("Their Customer");
  });

  it("the API answers 404 for another branch's record and cannot delete it", async () => {
    expect(
      (
        await responseOf(
          apiDetailLoader({ request: api(`/api/v1/test-ride/${mine.slug}`), context: ctx, params: { id: mine.slug } }),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await responseOf(
          apiDetailLoader({
            request: api(`/api/v1/test-ride/${theirs.slug}`),
            context: ctx,
            params: { id: theirs.slug },
          }),
        )
      ).status,
    ).toBe(404);
    const del = await responseOf(
      apiDeleteAction({
        request: api(`/api/v1/test-ride/${theirs.slug}`, { method: "DELETE" }),
        context: ctx,
        params: { id: theirs.slug },
      }),
    );
    expect(del.status).toBe(404);
    expect(db.select().from(schema.testRides).where(eq(schema.testRides.id, theirs.id)).get()?.deleted_at).toBeNull();
    const list = await (
      await responseOf(apiListLoader({ request: api("/api/v1/test-ride"), context: ctx, params: {} }))
    ).json();
    expect(list.recordsTotal).toBe(1);
    const all = await (
      await responseOf(apiListLoader({ request: api("/api/v1/test-ride", {}, adminToken), context: ctx, params: {} }))
    ).json();
    expect(all.recordsTotal).toBe(2);
  });

  it("the download holds only its branch's rows", async () => {
    const res = await responseOf(
      downloadLoader({ request: api("/api/v1/test-ride/download"), context: ctx, params: {} }),
    );
    expect(res.headers.get("Content-Disposition")).toContain("TestRides.xls");
    const wb = XLSX.read(Buffer.from(await res.arrayBuffer()), { type: "buffer" });
    const rows = XLSX.utils.sheet_to_json<Record<string, string>>(wb.Sheets[wb.SheetNames[0]]);
    expect(rows.map((r) => r.Name)).toEqual(["Mine Customer"]);
  });
});
