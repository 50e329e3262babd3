// The allocation (scheme) API: GET list (DataTables), POST create, GET/DELETE one, PATCH count, and the draw audit API;
// a branch user holding manage-allocation reaches its own branch's pools only, through the API and the pages.
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { db, schema } from "@db/index";
import { drawSecondThrill } from "~/models/prize-draw.server";
import { createRole } from "~/models/role.server";
import { SYSTEM_ACTOR } from "~/models/scope.server";
import { createUser } from "~/models/user.server";
import { loader as pageLoader, action as pageAction } from "~/routes/admin.scheme.$id";
import { loader as listLoader, action as createAction } from "~/routes/api.v1.allocation";
import { loader as oneLoader, action as oneAction } from "~/routes/api.v1.allocation.$id";
import { loader as drawsLoader } from "~/routes/api.v1.draws";
import { loader as downloadLoader } from "~/routes/api.v1.draws.download";
import { issueToken } from "~/http/api.server";
import { sessionStorage } from "~/http/session.server";
import { kathmanduDate } from "~/utils/time";
import { makeAllocation, makeBranch, makePreregistration, makeUser } from "../fixtures";
import { clearOfKathmanduMidnight } from "../clock";
import { context, req, responseOf } from "../route-helpers";

const list = (query: string, token?: string) =>
  responseOf(listLoader({ request: req("GET", `/api/v1/allocation${query}`, { token }), context, params: {} }));
const create = (body: unknown, token?: string) =>
  responseOf(createAction({ request: req("POST", "/api/v1/allocation", { token, json: body }), context, params: {} }));
const one = (method: string, id: number | string, token?: string, body?: unknown) => {
  const request = req(method, `/api/v1/allocation/${id}`, { token, json: body });
  const args = { request, context, params: { id: String(id) } };
  return responseOf(method === "GET" ? oneLoader(args) : oneAction(args));
};

let adminToken: string;
let staffToken: string;
let branchId: number;
const DATE = "2031-03-14";

beforeAll(async () => {
  const admin = await makeUser("super-admin", null);
  branchId = makeBranch().id;
  const staff = await makeUser("branch-staff", branchId);
  adminToken = issueToken(admin.id, false).token;
  staffToken = issueToken(staff.id, false).token;
});

describe("POST /api/v1/allocation", () => {
  it("creates a branch pool: 201 with the row, paid 0 and remaining = count", async () => {
    const res = await create(
      { type: "registration_branch", branch_id: branchId, amount: 100000, date: DATE, probability: 25, count: 3 },
      adminToken,
    );
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.message).toBe("Scheme created.");
    expect(body.data).toMatchObject({
      type: "registration_branch",
      branch_id: branchId,
      amount: 100000,
      date: DATE,
      probability: 25,
      count: 3,
      paid: 0,
      remaining: 3,
    });
    expect(body.data).not.toHaveProperty("created_by");
  });

  it("creates a public pool with the defaults count 1 and probability 0 (form-encoded too)", async () => {
    const request = new Request("http://localhost/api/v1/allocation", {
      method: "POST",
      headers: { Authorization: `Bearer ${adminToken}` },
      body: new URLSearchParams({ type: "preregistration_public", amount: "4000", date: DATE }),
    });
    const res = await responseOf(createAction({ request, context, params: {} }));
    expect(res.status).toBe(201);
    const { data } = await res.json();
    expect(data).toMatchObject({ type: "preregistration_public", branch_id: null, count: 1, probability: 0 });
  });

  it("422 with the errors map: count 6, an amount not in the type's list, a branch type without branch", async () => {
    const res = await create(
      { type: "preregistration_branch", amount: 100000, date: DATE, probability: 5, count: 6 },
      adminToken,
    );
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.errors.count).toEqual(["The count must be between 1 and 5."]);
    expect(body.errors.amount).toEqual(["Choose an amount from the list for this type."]);
    expect(body.errors.branch_id).toEqual(["Choose a branch for this type."]);
    expect(typeof body.message).toBe("string");
    expect(db.select().from(schema.allocations).where(eq(schema.allocations.amount, 100000)).all()).toHaveLength(1);
  });

  it("422 for a bad date, a probability over 100, a branch on a public pool and an unknown branch", async () => {
    const bad = await create(
      { type: "preregistration_public", branch_id: branchId, amount: 4000, date: "2031-02-30", probability: 101 },
      adminToken,
    );
    expect(bad.status).toBe(422);
    const errors = (await bad.json()).errors;
    expect(errors.date).toEqual(["Enter the date as yyyy/MM/dd."]);
    expect(errors.probability).toEqual(["The probability must be a whole number between 0 and 100."]);
    expect(errors.branch_id).toEqual(["A public pre-registration scheme has no branch; leave the branch empty."]);

    const unknown = await create(
      { type: "registration_branch", branch_id: 999999, amount: 1000, date: DATE },
      adminToken,
    );
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).errors.branch_id).toEqual(["Choose a branch from the list."]);
  });

  it("403 for a branch user without manage-allocation, 401 without or with a bad token", async () => {
    const body = { type: "preregistration_public", amount: 4000, date: DATE };
    const denied = await create(body, staffToken);
    expect(denied.status).toBe(403);
    expect((await denied.json()).message).toBe("This action is unauthorized.");
    expect((await create(body)).status).toBe(401);
    expect((await create(body, "made-up")).status).toBe(401);
  });
});

describe("GET /api/v1/allocation", () => {
  it("answers the DataTables shape with branch, paid and remaining, filtered by type, branch and date", async () => {
    const res = await list(
      `?draw=3&start=0&length=10&type=registration_branch&branch_id=${branchId}&date=${DATE}`,
      adminToken,
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.draw).toBe(3);
    expect(body.recordsFiltered).toBe(1);
    expect(body.recordsTotal).toBeGreaterThanOrEqual(2);
    expect(body.data[0]).toMatchObject({ amount: 100000, paid: 0, remaining: 3, branch: { id: branchId } });
    expect(body.input.type).toBe("registration_branch");
  });

  it("pages with start and length", async () => {
    const first = await (await list(`?start=0&length=1&date=${DATE}`, adminToken)).json();
    const second = await (await list(`?start=1&length=1&date=${DATE}`, adminToken)).json();
    expect(first.data).toHaveLength(1);
    expect(second.data).toHaveLength(1);
    expect(first.data[0].id).not.toBe(second.data[0].id);
  });

  it("403 for a branch user, 401 without a token", async () => {
    expect((await list("", staffToken)).status).toBe(403);
    expect((await list("")).status).toBe(401);
  });
});

describe("GET, PATCH and DELETE /api/v1/allocation/{id}", () => {
  it("reads one pool, 404 for an unknown one, 403 for a branch user", async () => {
    const id = (await (await create({ type: "preregistration_public", amount: 5000, date: DATE }, adminToken)).json())
      .data.id;
    const res = await one("GET", id, adminToken);
    expect(res.status).toBe(200);
    expect((await res.json()).data).toMatchObject({ id, amount: 5000, remaining: 1 });
    expect((await one("GET", 999999, adminToken)).status).toBe(404);
    expect((await one("GET", "abc", adminToken)).status).toBe(404);
    expect((await one("GET", id, staffToken)).status).toBe(403);
  });

  it("deletes a pool that has paid nothing: 200, then 404", async () => {
    const id = (await (await create({ type: "preregistration_public", amount: 6000, date: DATE }, adminToken)).json())
      .data.id;
    expect((await one("DELETE", id, staffToken)).status).toBe(403);
    expect((await one("DELETE", id)).status).toBe(401);
    const res = await one("DELETE", id, adminToken);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: null, message: "Scheme deleted." });
    expect((await one("DELETE", id, adminToken)).status).toBe(404);
  });

  it("refuses to delete a pool that has paid out (409) and to change a committed day's pool (422)", async () => {
    await clearOfKathmanduMidnight(20_000);
    const today = kathmanduDate();
    const created = await create(
      { type: "preregistration_public", amount: 50000, date: today, probability: 100, count: 2 },
      adminToken,
    );
    const id = (await created.json()).data.id;
    const draw = await drawSecondThrill(makePreregistration({ is_verified: true, status: "verified" }).id);
    expect(draw.allocation_id).toBe(id);

    const refused = await one("DELETE", id, adminToken);
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe(
      "This scheme has already paid out 1 prize and can no longer be deleted.",
    );
    expect((await (await one("GET", id, adminToken)).json()).data).toMatchObject({ paid: 1, remaining: 1 });

    const tooFew = await one("PATCH", id, adminToken, { count: 0 });
    expect(tooFew.status).toBe(422);
    expect((await tooFew.json()).errors.count).toEqual(["The count must be between 1 and 5."]);
    // The draw committed the day's pools (decision 19): their counts no longer change, up or down.
    for (const count of [1, 5]) {
      const changed = await one("PATCH", id, adminToken, { count });
      expect(changed.status).toBe(422);
      expect((await changed.json()).errors.count).toEqual([
        `The pools of ${today} are committed and published for the fair draws: they can no longer change. Choose a later day.`,
      ]);
    }
    expect((await (await one("GET", id, adminToken)).json()).data).toMatchObject({ count: 2, paid: 1 });
    const added = await create({ type: "preregistration_public", amount: 50000, date: today, count: 1 }, adminToken);
    expect(added.status).toBe(422);
    expect((await added.json()).errors.date).toHaveLength(1);
  });
});

describe("the draw audit API", () => {
  it("GET /api/v1/draws lists draws with their pools and rolls; branch staff get 403", async () => {
    const res = await responseOf(
      drawsLoader({
        request: req("GET", "/api/v1/draws?outcome=pool&pool_type=preregistration_public", { token: adminToken }),
        context,
        params: {},
      }),
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.recordsFiltered).toBe(1);
    const [draw] = body.data;
    expect(draw).toMatchObject({ thrill: 2, outcome: "pool", amount: 50000 });
    expect(draw.pools[0]).toMatchObject({ amount: 50000, remaining: 2, probability: 100 });
    expect(draw.rolls[0]).toMatchObject({ stage: "pool", win: true });
    const denied = await responseOf(
      drawsLoader({ request: req("GET", "/api/v1/draws", { token: staffToken }), context, params: {} }),
    );
    expect(denied.status).toBe(403);
  });

  it("GET /api/v1/draws/download answers Draws.xls; 403 for branch staff", async () => {
    const res = await responseOf(
      downloadLoader({
        request: req("GET", "/api/v1/draws/download?outcome=pool", { token: adminToken }),
        context,
        params: {},
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/vnd.ms-excel");
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="Draws.xls"');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0xd0, 0xcf, 0x11, 0xe0]); // a compound (BIFF8) file
    const denied = await responseOf(
      downloadLoader({ request: req("GET", "/api/v1/draws/download", { token: staffToken }), context, params: {} }),
    );
    expect(denied.status).toBe(403);
  });
});

describe("a branch user holding manage-allocation, and another branch's pool", () => {
  // A role giving manage-allocation to a branch user: its own branch's pools are in reach, another branch's (and
  // the public ones) are not, through the API and through the pages alike: 404, and the pool stays as it was.
  let ownId: number;
  let otherId: number;
  let branchToken: string;
  let branchCookie: string;
  const row = (id: number) => db.select().from(schema.allocations).where(eq(schema.allocations.id, id)).get();

  beforeAll(async () => {
    const role = createRole(SYSTEM_ACTOR, { title: "Branch Schemes", permissions: ["manage-allocation"] });
    if (!role.ok) throw new Error(role.message);
    const user = await createUser({
      first_name: "Branch",
      last_name: "Schemes",
      email: "branch-schemes@example.test",
      role_id: role.role.id,
      branch_id: branchId,
      password: "Secret-pass-9",
    });
    branchToken = issueToken(user.id, false).token;
    const session = await sessionStorage.getSession();
    session.set("userId", user.id);
    branchCookie = (await sessionStorage.commitSession(session)).split(";")[0];
    const other = makeBranch().id;
    const pool = { type: "registration_branch", date: DATE, amount: 5000, count: 2, probability: 10 };
    ownId = makeAllocation({ ...pool, branch_id: branchId }).id;
    otherId = makeAllocation({ ...pool, branch_id: other }).id;
  });

  const page = async (fn: typeof pageLoader | typeof pageAction, id: number, body?: Record<string, string>) => {
    const request = new Request(`http://localhost/admin/scheme/${id}`, {
      method: body ? "POST" : "GET",
      headers: { Cookie: branchCookie, Origin: "http://localhost" },
      body: body ? new URLSearchParams(body) : undefined,
    });
    const out = await responseOf(fn({ request, context, params: { id: String(id) } }));
    return out instanceof Response ? out.status : 200;
  };

  it("the API: GET, PATCH and DELETE of another branch's pool answer 404 and change nothing", async () => {
    const before = row(otherId);
    expect((await one("GET", ownId, branchToken)).status).toBe(200);
    expect((await one("GET", otherId, branchToken)).status).toBe(404);
    expect((await one("PATCH", otherId, branchToken, { count: 5 })).status).toBe(404);
    expect((await one("DELETE", otherId, branchToken)).status).toBe(404);
    expect(row(otherId)).toEqual(before);
    // The list holds its own branch's pools only.
    const listed = await (await list(`?date=${DATE}&length=100`, branchToken)).json();
    expect(listed.data.map((p: { id: number }) => p.id)).toContain(ownId);
    expect(listed.data.every((p: { branch_id: number | null }) => p.branch_id === branchId)).toBe(true);
  });

  it("the page /admin/scheme/{id}: its loader and both actions answer 404 and change nothing", async () => {
    const before = row(otherId);
    expect(await page(pageLoader, ownId)).toBe(200);
    expect(await page(pageLoader, otherId)).toBe(404);
    expect(await page(pageAction, otherId, { intent: "count", count: "5" })).toBe(404);
    expect(await page(pageAction, otherId, { intent: "delete" })).toBe(404);
    expect(row(otherId)).toEqual(before);
    expect(
      db
        .select()
        .from(schema.auditLog)
        .all()
        .filter((a) => a.entity_id === String(otherId) && a.user_email === "branch-schemes@example.test"),
    ).toEqual([]);
  });
});
