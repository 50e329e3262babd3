// The users and roles API (spec 001 §7): GET/POST /api/v1/user, GET/POST/DELETE /api/v1/user/{id}
// ({id} = the slug), GET /api/v1/role. 401 without a token, 403 without the permission, 422 with the
// field errors, 404 out of reach, and the success shapes; a deleted user's token stops at once.
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { db, schema } from "@db/index";
import { createRole } from "~/models/role.server";
import { SYSTEM_ACTOR } from "~/models/scope.server";
import { roleBySlug } from "~/models/user.server";
import { USER_ERRORS } from "~/models/dealer-user.server";
import { loader as meLoader } from "~/routes/api.v1.auth.me";
import { loader as roleLoader } from "~/routes/api.v1.role";
import { action as createAction, loader as listLoader } from "~/routes/api.v1.user";
import { action as oneAction, loader as oneLoader } from "~/routes/api.v1.user.$id";
import { USER_MESSAGES } from "~/schemas/user";
import { issueToken } from "~/http/api.server";
import { createUser } from "~/models/user.server";
import { makeBranch, makeUser, nextPhone } from "../fixtures";
import { context, req, responseOf } from "../route-helpers";

const list = (query: string, token?: string) =>
  responseOf(listLoader({ request: req("GET", `/api/v1/user${query}`, { token }), context, params: {} }));
const create = (body: unknown, token?: string) =>
  responseOf(createAction({ request: req("POST", "/api/v1/user", { token, json: body }), context, params: {} }));
const one = (method: string, id: string, token?: string, body?: unknown) => {
  const args = { request: req(method, `/api/v1/user/${id}`, { token, json: body }), context, params: { id } };
  return responseOf(method === "GET" ? oneLoader(args) : oneAction(args));
};
const roles = (token?: string) =>
  responseOf(roleLoader({ request: req("GET", "/api/v1/role", { token }), context, params: {} }));

let branchId: number;
let otherBranch: number;
let adminToken: string;
let branchAdminToken: string;
let staffToken: string;
let readerToken: string;
let branchAdminSlug: string;

const body = (over: Record<string, unknown> = {}) => ({
  first_name: "Api",
  last_name: "Person",
  email: `api-${Math.random().toString(36).slice(2)}@example.test`,
  phone: nextPhone(),
  sex: "OTHERS",
  address: "Pokhara",
  role_id: roleBySlug("branch-staff")!.id,
  branch_id: branchId,
  password: "Lakeside-Ride-2031",
  password_confirmation: "Lakeside-Ride-2031",
  ...over,
});

beforeAll(async () => {
  branchId = makeBranch().id;
  otherBranch = makeBranch().id;
  adminToken = issueToken((await makeUser("super-admin", null)).id, false).token;
  staffToken = issueToken((await makeUser("branch-staff", branchId)).id, false).token;
  const role = createRole(SYSTEM_ACTOR, {
    title: "Branch Admin",
    permissions: [
      "read-user",
      "create-user",
      "update-user",
      "create-preregistration",
      "read-registration",
      "create-registration",
      "update-registration",
    ],
  });
  if (!role.ok) throw new Error(role.message);
  const branchAdmin = await createUser({
    first_name: "Branch",
    email: "branch-admin@example.test",
    role_id: role.role.id,
    branch_id: branchId,
    password: "Secret-pass-9",
  });
  branchAdminSlug = branchAdmin.slug;
  branchAdminToken = issueToken(branchAdmin.id, false).token;
  const readerRole = createRole(SYSTEM_ACTOR, { title: "Reader", permissions: ["read-user"] });
  if (!readerRole.ok) throw new Error(readerRole.message);
  const reader = await createUser({
    first_name: "Reader",
    email: "reader@example.test",
    role_id: readerRole.role.id,
    branch_id: null,
    password: "Secret-pass-9",
  });
  readerToken = issueToken(reader.id, false).token;
});

describe("POST /api/v1/user", () => {
  it("201 with the user: its slug as id, role, branch, permissions, never a password", async () => {
    const res = await create(body({ email: "New.Person@Example.test" }), adminToken);
    expect(res.status).toBe(201);
    const { data, message } = await res.json();
    expect(message).toBe("User created.");
    expect(data).toMatchObject({
      name: "Api Person",
      first_name: "Api",
      last_name: "Person",
      email: "new.person@example.test",
      sex: "OTHERS",
      address: "Pokhara",
      branch_id: branchId,
      branch: { id: branchId },
      role: { title: "Branch Staff" },
    });
    expect(data.id).toBe(data.slug);
    expect(data.slug).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(data.permissions).toContain("read-registration");
    expect(JSON.stringify(data)).not.toMatch(/password|scrypt/);
  });

  it("422 with the errors map: required fields, a short password, a mismatch, a bad phone and e-mail", async () => {
    const res = await create(
      { first_name: "", email: "nope", phone: "12345", password: "short", password_confirmation: "other" },
      adminToken,
    );
    expect(res.status).toBe(422);
    const { message, errors } = await res.json();
    expect(errors).toMatchObject({
      first_name: [USER_MESSAGES.firstName],
      email: [USER_MESSAGES.emailInvalid],
      phone: [USER_MESSAGES.phoneInvalid],
      role_id: [USER_MESSAGES.role],
      password: [USER_MESSAGES.passwordShort],
      password_confirmation: [USER_MESSAGES.confirmation],
    });
    expect(message).toBe(USER_MESSAGES.firstName);
  });

  it("422 for a common password, a taken e-mail, and a branch manager's escalation", async () => {
    const common = await create(body({ password: "password123", password_confirmation: "password123" }), adminToken);
    expect((await common.json()).errors.password).toEqual([USER_MESSAGES.passwordCommon]);
    const taken = await create(body({ email: "branch-admin@example.test" }), adminToken);
    expect((await taken.json()).errors.email).toEqual([USER_MESSAGES.emailTaken]);

    const superAdmin = await create(body({ role_id: roleBySlug("super-admin")!.id }), branchAdminToken);
    expect(superAdmin.status).toBe(422);
    expect((await superAdmin.json()).errors.role_id[0]).toMatch(/^You cannot give a role with permissions/);
    const elsewhere = await create(body({ branch_id: otherBranch }), branchAdminToken);
    expect(elsewhere.status).toBe(422);
    expect((await elsewhere.json()).errors.branch_id).toEqual([USER_ERRORS.otherBranch]);
    const own = await create(body({ branch_id: undefined }), branchAdminToken);
    expect(own.status).toBe(201);
    expect((await own.json()).data.branch_id).toBe(branchId);
  });

  it("401 without or with a bad token, 403 without create-user", async () => {
    expect((await create(body())).status).toBe(401);
    expect((await create(body(), "made-up")).status).toBe(401);
    const denied = await create(body(), readerToken);
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ message: "This action is unauthorized." });
    expect((await create(body(), staffToken)).status).toBe(403);
  });
});

describe("GET /api/v1/user", () => {
  it("the DataTables shape; a branch user sees its branch's users only", async () => {
    const res = await list("?draw=4&start=0&length=5", adminToken);
    expect(res.status).toBe(200);
    const all = await res.json();
    expect(all).toMatchObject({ draw: 4, input: { draw: "4" } });
    expect(all.data.length).toBeLessThanOrEqual(5);
    expect(all.recordsTotal).toBeGreaterThanOrEqual(5);
    expect(all.data[0]).toHaveProperty("role.title");
    expect(all.data[0].id).toBe(all.data[0].slug);

    const mine = await (await list("?length=100", branchAdminToken)).json();
    expect(mine.recordsTotal).toBeLessThan(all.recordsTotal);
    expect(mine.data.every((u: { branch_id: number }) => u.branch_id === branchId)).toBe(true);

    const searched = await (await list("?search[value]=branch-admin@", adminToken)).json();
    expect(searched.data.map((u: { slug: string }) => u.slug)).toEqual([branchAdminSlug]);
    const byRole = await (await list(`?role_id=${roleBySlug("super-admin")!.id}`, adminToken)).json();
    expect(byRole.data.every((u: { role: { title: string } }) => u.role.title === "Super Admin")).toBe(true);
  });

  it("422 for a bad filter, 401, 403", async () => {
    const bad = await list("?branch_id=somewhere", adminToken);
    expect(bad.status).toBe(422);
    expect((await bad.json()).errors.branch_id).toEqual([USER_MESSAGES.branch]);
    expect((await list("")).status).toBe(401);
    expect((await list("", staffToken)).status).toBe(403);
  });
});

describe("GET, POST, DELETE /api/v1/user/{id}", () => {
  it("reads one by slug; 404 for an unknown slug, a numeric id, another branch's user; 401; 403", async () => {
    const made = (await (await create(body({ branch_id: otherBranch }), adminToken)).json()).data;
    const res = await one("GET", made.slug, adminToken);
    expect(res.status).toBe(200);
    expect((await res.json()).data).toMatchObject({ slug: made.slug, id: made.slug, permissions: expect.any(Array) });
    const row = db.select().from(schema.users).where(eq(schema.users.slug, made.slug)).get()!;
    expect((await one("GET", String(row.id), adminToken)).status).toBe(404);
    expect((await one("GET", "no-such-user", adminToken)).status).toBe(404);
    const hidden = await one("GET", made.slug, branchAdminToken);
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toEqual({ message: "User not found." });
    expect((await one("GET", made.slug)).status).toBe(401);
    expect((await one("GET", made.slug, staffToken)).status).toBe(403);
  });

  it("updates with POST; an absent password keeps the old one; 422, 404, 403", async () => {
    const made = (await (await create(body(), adminToken)).json()).data;
    const res = await one(
      "POST",
      made.slug,
      adminToken,
      body({ email: made.email, first_name: "Changed", password: undefined, password_confirmation: undefined }),
    );
    expect(res.status).toBe(200);
    const updated = await res.json();
    expect(updated).toMatchObject({ message: "User updated.", data: { name: "Changed Person", slug: made.slug } });
    const login = await fetchLogin(made.email, "Lakeside-Ride-2031");
    expect(login).toBe(true);

    const invalid = await one("POST", made.slug, adminToken, body({ email: "", password: "x" }));
    expect(invalid.status).toBe(422);
    expect(Object.keys((await invalid.json()).errors).sort()).toEqual(["email", "password", "password_confirmation"]);
    expect((await one("POST", "no-such-user", adminToken, body())).status).toBe(404);
    expect((await one("POST", made.slug, readerToken, body())).status).toBe(403);
    expect((await one("POST", made.slug, undefined, body())).status).toBe(401);
  });

  it("DELETE: 200; the deleted user's token answers 401 on the next call; self 403; 404", async () => {
    const made = (await (await create(body(), branchAdminToken)).json()).data;
    const row = db.select().from(schema.users).where(eq(schema.users.slug, made.slug)).get()!;
    const theirToken = issueToken(row.id, true).token;
    const me = () =>
      responseOf(meLoader({ request: req("GET", "/api/v1/auth/me", { token: theirToken }), context, params: {} }));
    expect((await me()).status).toBe(200);

    const res = await one("DELETE", made.slug, branchAdminToken);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: null, message: "User deleted." });
    expect((await me()).status).toBe(401);
    expect((await one("GET", made.slug, adminToken)).status).toBe(404);
    expect((await one("DELETE", made.slug, adminToken)).status).toBe(404);

    const self = await one("DELETE", branchAdminSlug, branchAdminToken);
    expect(self.status).toBe(403);
    expect((await self.json()).message).toBe(USER_ERRORS.self);
    expect((await one("DELETE", branchAdminSlug, readerToken)).status).toBe(403);
    expect((await one("DELETE", branchAdminSlug)).status).toBe(401);
  });

  it("the last head-office user holding every permission cannot demote nor delete itself: 422, 403", async () => {
    const me = await (
      await responseOf(meLoader({ request: req("GET", "/api/v1/auth/me", { token: adminToken }), context, params: {} }))
    ).json();
    const slug = me.data.slug as string;
    const demote = await one(
      "POST",
      slug,
      adminToken,
      body({ email: me.data.email, branch_id: null, role_id: roleBySlug("branch-staff")!.id, password: undefined }),
    );
    expect(demote.status).toBe(422);
    expect((await demote.json()).errors).toEqual({ role_id: [USER_ERRORS.lastAdminRole] });
    const del = await one("DELETE", slug, adminToken);
    expect(del.status).toBe(403);
    expect((await one("GET", slug, adminToken)).status).toBe(200);
  });
});

describe("GET /api/v1/role", () => {
  it("roles with permissions, users count, locked and assignable for the caller; 401, 403", async () => {
    const res = await roles(branchAdminToken);
    expect(res.status).toBe(200);
    const { data } = await res.json();
    const byTitle = Object.fromEntries(data.map((r: { title: string }) => [r.title, r]));
    expect(byTitle["Super Admin"]).toMatchObject({ locked: true, assignable: false });
    expect(byTitle["Super Admin"].permissions).toHaveLength(21);
    expect(byTitle["Branch Staff"]).toMatchObject({ locked: false, assignable: true });
    expect(byTitle["Branch Manager"].assignable).toBe(false);
    expect(byTitle["Branch Admin"].users).toBeGreaterThanOrEqual(1);
    expect((await roles()).status).toBe(401);
    expect((await roles(staffToken)).status).toBe(403);
  });
});

async function fetchLogin(email: string, password: string) {
  const { verifyLogin } = await import("~/models/user.server");
  return (await verifyLogin(email, password)) !== null;
}
