// Walks the encoded route/permission table: every back-office route, for an anonymous visitor,
// a user without its permission and a user with it, through the admin layout's guard.
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { action as loginAction } from "~/routes/login";
import { loader as adminLoader } from "~/routes/admin";
import { loader as splatLoader } from "~/routes/admin.$";
import { createUser, permissionsOfRole } from "~/models/user.server";
import { ADMIN_ROUTES, PERMISSIONS, ruleFor, SEEDED_ROLES } from "~/utils/permissions";
import { makeBranch } from "../fixtures";

const ctx = { clientAddress: "10.4.0.1" };
const concrete = (pattern: string) => pattern.replace(/:[a-z]+/g, "some-slug");

async function sessionFor(email: string) {
  const res = (await loginAction({
    request: new Request("http://localhost/login", { method: "POST", body: new URLSearchParams({ email, password: "Secret-pass-9" }) }),
    context: ctx,
    params: {},
  })) as Response;
  return (res.headers.get("Set-Cookie") ?? "").split(";")[0];
}

type AnyLoader = (args: { request: Request; context: typeof ctx; params: Record<string, string> }) => Promise<unknown>;

async function visit(loader: AnyLoader, path: string, cookie?: string): Promise<{ status: number; location: string | null }> {
  try {
    const res = (await loader({ request: new Request(`http://localhost${path}`, { headers: cookie ? { Cookie: cookie } : {} }), context: ctx, params: {} })) as Response;
    return { status: res.status, location: null };
  } catch (e) {
    if (!(e instanceof Response)) throw e;
    return { status: e.status, location: e.headers.get("Location") };
  }
}

/** A role holding exactly one permission (or none), with a user at a branch. */
async function userWith(permission: string | null) {
  const role = db.insert(schema.roles).values({ slug: `only-${permission ?? "none"}`, title: `Only ${permission ?? "none"}` }).returning().get();
  if (permission) {
    const p = db.select().from(schema.permissions).all().find((x) => x.name === permission)!;
    db.insert(schema.rolePermissions).values({ role_id: role.id, permission_id: p.id }).run();
  }
  const user = await createUser({ first_name: "T", email: `only-${permission ?? "none"}@example.test`, role_id: role.id, branch_id: branchId, password: "Secret-pass-9" });
  return sessionFor(user.email);
}

let branchId: number;
const sessions = new Map<string | null, string>();

beforeAll(async () => {
  branchId = makeBranch().id;
  sessions.set(null, await userWith(null));
  for (const p of PERMISSIONS) sessions.set(p, await userWith(p));
});

describe("route/permission table", () => {
  it("names only known permissions and resolves literal routes before parameters", () => {
    for (const r of ADMIN_ROUTES) if (r.permission) expect(PERMISSIONS).toContain(r.permission);
    expect(ruleFor("/admin/registration/deleted")?.permission).toBe("delete-registration");
    expect(ruleFor("/admin/registration/create/abc")?.permission).toBe("create-registration");
    expect(ruleFor("/admin/registration/abc/draw")?.permission).toBe("create-registration");
    expect(ruleFor("/admin/scheme/create")?.permission).toBe("manage-allocation");
    expect(ruleFor("/admin/test-ride/abc")?.permission).toBeNull();
  });

  for (const rule of ADMIN_ROUTES) {
    const path = concrete(rule.pattern);
    it(`${path} (${rule.permission ?? "login only"})`, async () => {
      const anon = await visit(adminLoader, path);
      expect(anon.status).toBe(302);
      expect(anon.location).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);

      if (rule.permission) {
        const without = await visit(adminLoader, path, sessions.get(null));
        expect(without).toEqual({ status: 302, location: "/admin" });
        const otherPermission = PERMISSIONS.find((p) => p !== rule.permission)!;
        expect((await visit(adminLoader, path, sessions.get(otherPermission))).location).toBe("/admin");
      }
      const withIt = await visit(adminLoader, path, sessions.get(rule.permission));
      expect(withIt.status).toBe(200);
    });
  }

  it("unknown back-office URLs still need login, then are not found", async () => {
    expect((await visit(splatLoader, "/admin/nowhere")).location).toBe("/login?redirectTo=%2Fadmin%2Fnowhere");
    expect((await visit(splatLoader, "/admin/nowhere", sessions.get(null))).status).toBe(404);
  });

  it("the migration's seeded roles hold exactly the permissions of SEEDED_ROLES", () => {
    for (const role of SEEDED_ROLES) {
      const row = db.select().from(schema.roles).all().find((r) => r.slug === role.slug)!;
      expect(row.title).toBe(role.title);
      expect([...permissionsOfRole(row.id)].sort()).toEqual([...role.permissions].sort());
    }
  });
});
