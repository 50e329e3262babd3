// The users and roles pages through their loaders and actions, with real session cookies: each
// module answers 200 for a user holding its permission (a real slug, not a 404 behind the guard),
// the forms' errors come back without the passwords, a delete returns to /admin/user, and a deleted
// user's cookie stops working on the next request.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { createRole } from "~/models/role.server";
import { SYSTEM_ACTOR } from "~/models/scope.server";
import { createUser, roleBySlug, verifyLogin } from "~/models/user.server";
import { findUser, USER_ERRORS } from "~/models/dealer-user.server";
import * as adminLayout from "~/routes/admin";
import * as rolePage from "~/routes/admin.role";
import * as detailPage from "~/routes/admin.user.$slug._index";
import * as editPage from "~/routes/admin.user.$slug.edit";
import * as listPage from "~/routes/admin.user._index";
import * as createPage from "~/routes/admin.user.create";
import { ROLE_MESSAGES, USER_MESSAGES } from "~/schemas/user";
import { readToast } from "~/http/toast.server";
import { makeBranch, makeUser, nextPhone } from "../fixtures";
import { answerOf, cookieFor } from "../route-helpers";

type Fn = (args: LoaderFunctionArgs | ActionFunctionArgs) => Promise<unknown>;

async function run(fn: Fn, path: string, cookie: string, params: Record<string, string> = {}, form?: FormData) {
  const init: RequestInit = { headers: { Cookie: cookie } };
  if (form) {
    init.method = "POST";
    init.body = new URLSearchParams([...form.entries()].map(([k, v]) => [k, String(v)] as [string, string])).toString();
    (init.headers as Record<string, string>)["Content-Type"] = "application/x-www-form-urlencoded";
  }
  return answerOf(() =>
    fn({ request: new Request(`http://localhost${path}`, init), context: { clientAddress: "10.8.0.1" }, params }),
  );
}

/** A Remix `data()` answer or a Response, as status, body and redirect target. */
async function answer(out: unknown) {
  if (out instanceof Response) {
    const cookie = out.headers.get("Set-Cookie");
    const toast = cookie
      ? (await readToast(new Request("http://x/", { headers: { Cookie: cookie.split(";")[0] } }))).toast
      : null;
    return { status: out.status, location: out.headers.get("Location"), toast: toast?.message, body: null };
  }
  const d = out as { type?: string; data?: unknown; init?: { status?: number } };
  if (d && d.type === "DataWithResponseInit") {
    return { status: d.init?.status ?? 200, location: null, toast: undefined, body: d.data };
  }
  return { status: 200, location: null, toast: undefined, body: out };
}

const form = (values: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(values)) f.append(k, v);
  return f;
};

const PASSWORD = "Valley-Rider-2040";
let branchId: number;
let adminCookie: string;
let branchAdminCookie: string;
let target: { slug: string; email: string };

beforeAll(async () => {
  branchId = makeBranch().id;
  const admin = await makeUser("super-admin", null);
  adminCookie = await cookieFor(admin.id);
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
    last_name: "Admin",
    email: "branch-admin@example.test",
    role_id: role.role.id,
    branch_id: branchId,
    password: PASSWORD,
  });
  branchAdminCookie = await cookieFor(branchAdmin.id);
  target = await makeUser("branch-staff", branchId);
});

describe("each users and roles page answers 200 for a user holding its permission", () => {
  it("/admin/user, /admin/user/create, /admin/user/{slug}, /admin/user/{slug}/edit, /admin/role", async () => {
    const pages: [Fn, string, Record<string, string>][] = [
      [listPage.loader, "/admin/user", {}],
      [createPage.loader, "/admin/user/create", {}],
      [detailPage.loader, `/admin/user/${target.slug}`, { slug: target.slug }],
      [editPage.loader, `/admin/user/${target.slug}/edit`, { slug: target.slug }],
      [rolePage.loader, "/admin/role", {}],
    ];
    for (const [fn, path, params] of pages) {
      const res = await answer(await run(fn, path, adminCookie, params));
      expect(res.status, path).toBe(200);
    }
    // The modules declare what the route table says.
    expect(listPage.handle.permission).toBe("read-user");
    expect(createPage.handle.permission).toBe("create-user");
    expect(detailPage.handle.permission).toBe("read-user");
    expect(editPage.handle.permission).toBe("update-user");
    expect(rolePage.handle.permission).toBe("every-permission");
  });

  it("the list shows name, email, role; a branch user's list and form offer only its branch", async () => {
    const list = (await answer(await run(listPage.loader, "/admin/user?search=branch-admin", adminCookie))).body as {
      table: { data: { name: string; email: string; role: { title: string } }[] };
    };
    expect(list.table.data).toEqual([
      expect.objectContaining({ name: "Branch Admin", email: "branch-admin@example.test", role: expect.anything() }),
    ]);
    const own = (await answer(await run(createPage.loader, "/admin/user/create", branchAdminCookie))).body as {
      options: { headOffice: boolean; branches: { id: number }[]; roles: { title: string }[] };
      defaults: { branch_id: string };
    };
    expect(own.options.headOffice).toBe(false);
    expect(own.options.branches.map((b) => b.id)).toEqual([branchId]);
    expect(own.defaults.branch_id).toBe(String(branchId));
    expect(own.options.roles.map((r) => r.title).sort()).toEqual(["Branch Admin", "Branch Staff"]);
  });
});

describe("the forms", () => {
  const values = (over: Record<string, string> = {}) => ({
    branch_id: String(branchId),
    first_name: "Form",
    last_name: "Made",
    email: `form-${Math.random().toString(36).slice(2)}@example.test`,
    phone: nextPhone(),
    sex: "FEMALE",
    address: "Lalitpur",
    role_id: String(roleBySlug("branch-staff")!.id),
    password: PASSWORD,
    password_confirmation: PASSWORD,
    ...over,
  });

  it("an invalid create answers 422 with each field's errors and the values typed, never the passwords", async () => {
    const res = await answer(
      await run(
        createPage.action,
        "/admin/user/create",
        adminCookie,
        {},
        form(values({ first_name: "", email: "x", password: "Secret-Word-1", password_confirmation: "Other-Word-2" })),
      ),
    );
    expect(res.status).toBe(422);
    const result = (res.body as { result: { error: Record<string, string[]>; initialValue: Record<string, string> } })
      .result;
    expect(result.error.first_name).toEqual([USER_MESSAGES.firstName]);
    expect(result.error.email).toEqual([USER_MESSAGES.emailInvalid]);
    expect(result.error.password_confirmation).toEqual([USER_MESSAGES.confirmation]);
    expect(result.initialValue.address).toBe("Lalitpur");
    expect(JSON.stringify(result)).not.toMatch(/Secret-Word-1|Other-Word-2/);

    // A model failure (a common password) comes back the same way.
    const common = await answer(
      await run(
        createPage.action,
        "/admin/user/create",
        adminCookie,
        {},
        form(values({ password: "sunshine1", password_confirmation: "sunshine1" })),
      ),
    );
    expect(common.status).toBe(422);
    const reply = (common.body as { result: { error: Record<string, string[]> } }).result;
    expect(reply.error.password).toEqual([USER_MESSAGES.passwordCommon]);
    expect(JSON.stringify(common.body)).not.toContain("sunshine1");
  });

  it("a branch manager's tampered form (a role it lacks, another branch) is refused under the fields", async () => {
    const other = makeBranch().id;
    const res = await answer(
      await run(
        createPage.action,
        "/admin/user/create",
        branchAdminCookie,
        {},
        form(values({ branch_id: String(other), role_id: String(roleBySlug("super-admin")!.id) })),
      ),
    );
    expect(res.status).toBe(422);
    const error = (res.body as { result: { error: Record<string, string[]> } }).result.error;
    expect(error.branch_id).toEqual([USER_ERRORS.otherBranch]);
    expect(error.role_id[0]).toMatch(/^You cannot give a role with permissions you do not hold yourself/);
    expect(db.select().from(schema.users).where(eq(schema.users.branch_id, other)).all()).toHaveLength(0);
  });

  it("create goes to the detail; edit with an empty password keeps it; delete returns to /admin/user", async () => {
    const v = values();
    const made = await answer(await run(createPage.action, "/admin/user/create", adminCookie, {}, form(v)));
    expect(made.status).toBe(302);
    expect(made.toast).toBe("User created.");
    const slug = made.location!.split("/").pop()!;
    expect(made.location).toBe(`/admin/user/${slug}`);

    const edited = await answer(
      await run(
        editPage.action,
        `/admin/user/${slug}/edit`,
        adminCookie,
        { slug },
        form(values({ email: v.email, first_name: "Edited", password: "", password_confirmation: "" })),
      ),
    );
    expect([edited.status, edited.location, edited.toast]).toEqual([302, `/admin/user/${slug}`, "User updated."]);
    expect(findUser({ branchId: null }, slug)!.name).toBe("Edited Made");
    expect(await verifyLogin(v.email, PASSWORD)).not.toBeNull();

    const userId = findUser({ branchId: null }, slug)!.id;
    const theirCookie = await cookieFor(userId);
    const before = await answer(await run(adminLayout.loader as Fn, "/admin", theirCookie));
    expect(before.status).toBe(200);

    const deleted = await answer(
      await run(detailPage.action, `/admin/user/${slug}`, adminCookie, { slug }, form({ intent: "delete" })),
    );
    expect([deleted.status, deleted.location, deleted.toast]).toEqual([302, "/admin/user", "User deleted."]);
    // The deleted user's cookie: the next request is sent to the login page.
    const after = await answer(await run(adminLayout.loader as Fn, "/admin", theirCookie));
    expect(after.status).toBe(302);
    expect(after.location).toMatch(/^\/login\?redirectTo=/);
    expect((await answer(await run(detailPage.loader, `/admin/user/${slug}`, adminCookie, { slug }))).status).toBe(404);
  });

  it("deleting oneself is refused with the reason; the detail hides Delete for oneself", async () => {
    const self = db.select().from(schema.users).where(eq(schema.users.email, "branch-admin@example.test")).get()!;
    const page = (
      await answer(await run(detailPage.loader, `/admin/user/${self.slug}`, branchAdminCookie, { slug: self.slug }))
    ).body as { canEdit: boolean; canDelete: boolean };
    expect(page).toMatchObject({ canEdit: true, canDelete: false });
    // One's own edit page offers no password fields: the Profile page changes it, with the current one.
    const edit = (
      await answer(await run(editPage.loader, `/admin/user/${self.slug}/edit`, branchAdminCookie, { slug: self.slug }))
    ).body as { self: boolean };
    expect(edit.self).toBe(true);
    const res = await answer(
      await run(
        detailPage.action,
        `/admin/user/${self.slug}`,
        branchAdminCookie,
        { slug: self.slug },
        form({ intent: "delete" }),
      ),
    );
    expect([res.status, res.location, res.toast]).toEqual([302, `/admin/user/${self.slug}`, USER_ERRORS.self]);
  });
});

describe("the role page", () => {
  it("saves the matrix; the locked role's boxes are not sent; a new role is created; errors come back", async () => {
    const staff = roleBySlug("branch-staff")!;
    const f = new FormData();
    f.append("intent", "matrix");
    f.append("roles", String(staff.id));
    for (const p of ["create-preregistration", "read-registration", "create-registration", "update-registration"]) {
      f.append(`role.${staff.id}`, p);
    }
    f.append(`role.${staff.id}`, "read-video");
    const saved = await answer(await run(rolePage.action, "/admin/role", adminCookie, {}, f));
    expect([saved.status, saved.toast]).toEqual([302, "Permissions saved: Branch Staff."]);

    const locked = new FormData();
    locked.append("intent", "matrix");
    const sa = roleBySlug("super-admin")!;
    locked.append("roles", String(sa.id));
    const refused = await answer(await run(rolePage.action, "/admin/role", adminCookie, {}, locked));
    expect(refused.status).toBe(422);
    expect((refused.body as { errors: Record<string, string[]> }).errors[`role.${sa.id}`]).toEqual([
      ROLE_MESSAGES.locked,
    ]);

    const created = await answer(
      await run(rolePage.action, "/admin/role", adminCookie, {}, form({ intent: "create", title: "Auditor" })),
    );
    expect([created.status, created.toast]).toEqual([302, "Role Auditor created."]);
    const dup = await answer(
      await run(rolePage.action, "/admin/role", adminCookie, {}, form({ intent: "create", title: "auditor" })),
    );
    expect(dup.status).toBe(422);
    const dupResult = (dup.body as { result: { error: Record<string, string[]>; initialValue: { title: string } } })
      .result;
    expect(dupResult.error.title).toEqual([ROLE_MESSAGES.titleTaken]);
    expect(dupResult.initialValue.title).toBe("auditor");
  });
});
