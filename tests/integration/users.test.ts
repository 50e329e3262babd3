// The dealer users area's rules, in the model: passwords, escalation (roles, branches, users holding
// more), the last head-office full administrator, nobody deleting themselves, sessions and tokens
// ended with a change of role, branch or password, the audit rows; and the role matrix.
import { and, eq, isNull, ne } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { createRole, listRoleMatrix, saveRoleMatrix } from "~/models/role.server";
import { SYSTEM_ACTOR, type ScopedActor } from "~/models/scope.server";
import { changePassword, getSessionUser, passwordProblem, roleBySlug, verifyLogin } from "~/models/user.server";
import { addUser, deleteUser, findUser, listUsers, updateUser, USER_ERRORS } from "~/models/dealer-user.server";
import { ROLE_MESSAGES, USER_MESSAGES, userCreateSchema, userUpdateSchema } from "~/schemas/user";
import { issueToken } from "~/http/api.server";
import { parseTableParams } from "~/utils/datatable.server";
import { sessionStorage } from "~/http/session.server";
import { makeBranch, nextPhone } from "../fixtures";

const PASSWORD = "Kathmandu-Bikes-42";
let n = 0;

/** Form-like values for a new user, parsed by the form's schema. */
function newUser(over: Record<string, unknown> = {}) {
  n++;
  return userCreateSchema.parse({
    first_name: "Test",
    last_name: `User ${n}`,
    email: `user-${n}-${Date.now()}@example.test`,
    phone: nextPhone(),
    role_id: roleBySlug("branch-staff")!.id,
    password: PASSWORD,
    password_confirmation: PASSWORD,
    ...over,
  });
}

async function make(actor: ScopedActor, over: Record<string, unknown> = {}) {
  const result = await addUser(actor, newUser(over));
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.user;
}

const actorOf = (u: { id: number; email: string; branch_id: number | null }): ScopedActor => ({
  id: u.id,
  email: u.email,
  address: "10.9.0.1",
  scope: { branchId: u.branch_id },
});

/** The form's values for an existing user, changed by `over`. */
function editValues(slug: string, over: Record<string, unknown> = {}) {
  const u = findUser({ branchId: null }, slug)!;
  return userUpdateSchema.parse({
    branch_id: u.branch_id ?? "",
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email,
    phone: u.phone,
    sex: u.sex,
    address: u.address ?? "",
    role_id: u.role_id,
    ...over,
  });
}

async function sessionRowFor(userId: number) {
  const s = await sessionStorage.getSession();
  s.set("userId", userId);
  await sessionStorage.commitSession(s);
}

const liveSessions = (userId: number) =>
  db.select().from(schema.sessions).where(eq(schema.sessions.user_id, userId)).all().length;
const liveTokens = (userId: number) =>
  db
    .select()
    .from(schema.apiTokens)
    .where(and(eq(schema.apiTokens.user_id, userId), isNull(schema.apiTokens.revoked_at)))
    .all().length;
const auditRows = (action: string, entityId: string) =>
  db
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.action, action), eq(schema.auditLog.entity_id, entityId)))
    .all();

let branchA: number;
let branchB: number;
let branchAdminRole: number;
let admin: Awaited<ReturnType<typeof make>>;
let branchAdmin: Awaited<ReturnType<typeof make>>;

beforeAll(async () => {
  branchA = makeBranch().id;
  branchB = makeBranch().id;
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
  branchAdminRole = role.role.id;
  admin = await make(SYSTEM_ACTOR, { role_id: roleBySlug("super-admin")!.id });
  branchAdmin = await make(SYSTEM_ACTOR, { role_id: branchAdminRole, branch_id: branchA });
});

describe("passwords", () => {
  it("at least 8 characters and matching confirmation (the schema); common ones and the e-mail refused", async () => {
    const short = userCreateSchema.safeParse({ ...newUser(), password: "Ab1!xyz", password_confirmation: "Ab1!xyz" });
    expect(short.success).toBe(false);
    expect(short.error!.issues.map((i) => i.message)).toContain(USER_MESSAGES.passwordShort);
    const mismatch = userCreateSchema.safeParse({ ...newUser(), password_confirmation: "something-else" });
    expect(mismatch.error!.issues[0]).toMatchObject({
      path: ["password_confirmation"],
      message: USER_MESSAGES.confirmation,
    });
    expect(await passwordProblem("password123")).toBe(USER_MESSAGES.passwordCommon);
    expect(await passwordProblem("QWERTYUIOP")).toBe(USER_MESSAGES.passwordCommon);
    expect(await passwordProblem("iloveyou12")).toBe(USER_MESSAGES.passwordCommon);
    expect(await passwordProblem("someone@example.test", "Someone@Example.test")).toBe(USER_MESSAGES.passwordIsEmail);
    expect(await passwordProblem("Demo@12345")).toBeNull();
    expect(await passwordProblem(PASSWORD)).toBeNull();

    const common = await addUser(
      actorOf(admin),
      newUser({ password: "baseball1", password_confirmation: "baseball1" }),
    );
    expect(common).toMatchObject({ ok: false, code: "invalid", errors: { password: [USER_MESSAGES.passwordCommon] } });
  });

  it("the password is stored hashed, never in the audit trail (•••)", async () => {
    const user = await make(actorOf(admin));
    const row = db.select().from(schema.users).where(eq(schema.users.id, user.id)).get()!;
    expect(row.password_hash).toMatch(/^scrypt\$/);
    const [created] = auditRows("user.create", user.slug);
    expect(created.user_email).toBe(admin.email);
    expect(created.changes).not.toContain(PASSWORD);
    expect(created.changes).not.toContain("scrypt");
    expect(JSON.parse(created.changes).password).toEqual({ before: null, after: "•••" });
    expect(await verifyLogin(user.email, PASSWORD)).not.toBeNull();
  });

  it("the profile page's change refuses a common password too", async () => {
    const user = await make(actorOf(admin));
    const result = await changePassword({ id: user.id, email: user.email }, { current: PASSWORD, next: "password1" });
    expect(result).toMatchObject({ ok: false, errors: { password: [USER_MESSAGES.passwordCommon] } });
  });
});

describe("creating users", () => {
  it("head office makes a user at any branch or at head office; the e-mail is unique in any letter case", async () => {
    const user = await make(actorOf(admin), { branch_id: branchB, email: "Mixed.Case@Example.test", sex: "FEMALE" });
    expect(user).toMatchObject({
      branch_id: branchB,
      email: "mixed.case@example.test",
      sex: "FEMALE",
      role: { title: "Branch Staff" },
    });
    const again = await addUser(actorOf(admin), newUser({ email: "MIXED.case@example.test" }));
    expect(again).toMatchObject({ ok: false, errors: { email: [USER_MESSAGES.emailTaken] } });
    const unknownBranch = await addUser(actorOf(admin), newUser({ branch_id: 999999 }));
    expect(unknownBranch).toMatchObject({ ok: false, errors: { branch_id: [USER_MESSAGES.branch] } });
    const unknownRole = await addUser(actorOf(admin), newUser({ role_id: 999999 }));
    expect(unknownRole).toMatchObject({ ok: false, errors: { role_id: [USER_MESSAGES.roleMissing] } });
  });

  it("a branch manager cannot give a role with a permission it lacks, nor make a user at another branch", async () => {
    const actor = actorOf(branchAdmin);
    const superAdmin = await addUser(actor, newUser({ role_id: roleBySlug("super-admin")!.id }));
    expect(superAdmin.ok).toBe(false);
    if (superAdmin.ok) return;
    expect(superAdmin.code).toBe("invalid");
    expect(superAdmin.errors.role_id[0]).toMatch(/^You cannot give a role with permissions you do not hold yourself: /);
    expect(superAdmin.errors.role_id[0]).toContain("View branches");
    // Branch Manager holds delete-registration, which this Branch Admin does not.
    const manager = await addUser(actor, newUser({ role_id: roleBySlug("branch-manager")!.id }));
    expect(manager).toMatchObject({
      ok: false,
      errors: { role_id: [USER_ERRORS.roleNotHeld(["delete-registration"])] },
    });
    const elsewhere = await addUser(actor, newUser({ branch_id: branchB }));
    expect(elsewhere).toMatchObject({ ok: false, errors: { branch_id: [USER_ERRORS.otherBranch] } });
    expect(db.select().from(schema.users).where(eq(schema.users.branch_id, branchB)).all()).toHaveLength(1);

    // Its own branch, and no branch given means its own branch; a role it holds.
    const own = await make(actor, { branch_id: branchA });
    const implicit = await make(actor, { branch_id: "" });
    expect([own.branch_id, implicit.branch_id]).toEqual([branchA, branchA]);
  });
});

describe("reach", () => {
  it("a branch user lists and opens only its own branch's users; head office sees every one", async () => {
    const other = await make(actorOf(admin), { branch_id: branchB, first_name: "Elsewhere" });
    const mine = listUsers({ branchId: branchA }, parseTableParams(new URLSearchParams("length=100")));
    expect(mine.data.length).toBeGreaterThan(0);
    expect(mine.data.every((u) => u.branch_id === branchA)).toBe(true);
    expect(findUser({ branchId: branchA }, other.slug)).toBeNull();
    expect(findUser({ branchId: branchA }, admin.slug)).toBeNull();
    expect(findUser({ branchId: null }, other.slug)).not.toBeNull();
    const all = listUsers({ branchId: null }, parseTableParams(new URLSearchParams("length=100")));
    expect(all.recordsTotal).toBeGreaterThan(mine.recordsTotal);
    const search = listUsers({ branchId: null }, parseTableParams(new URLSearchParams("search=Elsewhere")));
    expect(search.data.map((u) => u.slug)).toEqual([other.slug]);
    const headOffice = listUsers({ branchId: null }, parseTableParams(new URLSearchParams()), {
      branch_id: "head-office",
    });
    expect(headOffice.data.every((u) => u.branch_id === null)).toBe(true);

    // Out of reach is not found, for changes too.
    const actor = actorOf(branchAdmin);
    expect(await updateUser(actor, other.slug, editValues(other.slug))).toMatchObject({ code: "not_found" });
    expect(deleteUser(actor, other.slug)).toMatchObject({ code: "not_found" });
    expect(deleteUser(actor, admin.slug)).toMatchObject({ code: "not_found" });
  });

  it("a user holding permissions the actor lacks cannot be changed or deleted by it", async () => {
    const manager = await make(SYSTEM_ACTOR, { role_id: roleBySlug("branch-manager")!.id, branch_id: branchA });
    const actor = actorOf(branchAdmin);
    const change = await updateUser(
      actor,
      manager.slug,
      editValues(manager.slug, { password: "Another-pass-77", password_confirmation: "Another-pass-77" }),
    );
    expect(change).toMatchObject({ ok: false, code: "forbidden", message: USER_ERRORS.targetNotHeld });
    expect(deleteUser(actor, manager.slug)).toMatchObject({ ok: false, code: "forbidden" });
    expect(await verifyLogin(manager.email, PASSWORD)).not.toBeNull();
  });

  it("a branch user cannot move a user of its branch to another branch or to head office", async () => {
    const staff = await make(actorOf(branchAdmin));
    const actor = actorOf(branchAdmin);
    const moved = await updateUser(actor, staff.slug, editValues(staff.slug, { branch_id: branchB }));
    expect(moved).toMatchObject({ ok: false, errors: { branch_id: [USER_ERRORS.otherBranch] } });
    // An empty branch from a branch user means its own branch, never head office.
    const kept = await updateUser(actor, staff.slug, editValues(staff.slug, { branch_id: "" }));
    expect(kept.ok && kept.user.branch_id).toBe(branchA);
  });
});

describe("editing users", () => {
  it("an empty password keeps the old one; the change is audited field by field; sessions stay", async () => {
    const user = await make(actorOf(admin));
    await sessionRowFor(user.id);
    issueToken(user.id, false);
    const result = await updateUser(
      actorOf(admin),
      user.slug,
      editValues(user.slug, { first_name: "Renamed", phone: "9841555123", password: "", password_confirmation: "" }),
    );
    expect(result.ok && result.sessionsEnded).toBe(false);
    expect(findUser({ branchId: null }, user.slug)).toMatchObject({ name: `Renamed ${user.last_name}` });
    expect(await verifyLogin(user.email, PASSWORD)).not.toBeNull();
    expect([liveSessions(user.id), liveTokens(user.id)]).toEqual([1, 1]);
    const [row] = auditRows("user.update", user.slug);
    const changes = JSON.parse(row.changes);
    expect(Object.keys(changes).sort()).toEqual(["first_name", "name", "phone"]);
    expect(changes.first_name).toEqual({ before: "Test", after: "Renamed" });
  });

  it("a new password, role or branch ends the user's sessions and revokes its API tokens", async () => {
    const user = await make(actorOf(admin), { branch_id: branchA });
    const cases: Record<string, unknown>[] = [
      { password: "Fresh-password-81", password_confirmation: "Fresh-password-81" },
      { role_id: roleBySlug("branch-manager")!.id },
      { branch_id: branchB },
    ];
    for (const over of cases) {
      await sessionRowFor(user.id);
      issueToken(user.id, true);
      const result = await updateUser(actorOf(admin), user.slug, editValues(user.slug, over));
      expect(result.ok && result.sessionsEnded, JSON.stringify(over)).toBe(true);
      expect([liveSessions(user.id), liveTokens(user.id)], JSON.stringify(over)).toEqual([0, 0]);
    }
    expect(await verifyLogin(user.email, "Fresh-password-81")).not.toBeNull();
    const changes = auditRows("user.update", user.slug).map((r) => JSON.parse(r.changes));
    expect(changes[0].password).toEqual({ before: "•••", after: "•••" });
    expect(changes[1].role_id.after).toBe(roleBySlug("branch-manager")!.id);
    expect(changes[2].branch_id).toEqual({ before: branchA, after: branchB });
  });

  it("one's own password is changed on the Profile page, not through the user form", async () => {
    const result = await updateUser(
      actorOf(admin),
      admin.slug,
      editValues(admin.slug, { password: "Fresh-password-81", password_confirmation: "Fresh-password-81" }),
    );
    expect(result).toMatchObject({ ok: false, errors: { password: [USER_ERRORS.ownPassword] } });
  });
});

describe("deleting users", () => {
  it("nobody deletes themselves", () => {
    expect(deleteUser(actorOf(branchAdmin), branchAdmin.slug)).toMatchObject({
      ok: false,
      code: "forbidden",
      message: USER_ERRORS.self,
    });
    expect(findUser({ branchId: null }, branchAdmin.slug)).not.toBeNull();
  });

  it("a deleted user's sessions and tokens end at once; the e-mail can be used again", async () => {
    const user = await make(actorOf(branchAdmin));
    await sessionRowFor(user.id);
    issueToken(user.id, false);
    const result = deleteUser(actorOf(branchAdmin), user.slug);
    expect(result.ok).toBe(true);
    expect([liveSessions(user.id), liveTokens(user.id)]).toEqual([0, 0]);
    expect(getSessionUser(user.id)).toBeNull();
    expect(await verifyLogin(user.email, PASSWORD)).toBeNull();
    expect(findUser({ branchId: null }, user.slug)).toBeNull();
    const [row] = auditRows("user.delete", user.slug);
    expect(JSON.parse(row.changes).email).toEqual({ before: user.email, after: null });
    const again = await make(actorOf(admin), { email: user.email });
    expect(again.email).toBe(user.email);
  });
});

describe("an actor deleted in the meantime", () => {
  it("can no longer change anything: two administrators deleting each other leave one", async () => {
    const a = await make(SYSTEM_ACTOR, { role_id: roleBySlug("super-admin")!.id });
    const b = await make(SYSTEM_ACTOR, { role_id: roleBySlug("super-admin")!.id });
    expect(deleteUser(actorOf(a), b.slug).ok).toBe(true);
    // b's request was already past its permission check when a's delete committed.
    expect(deleteUser(actorOf(b), a.slug)).toMatchObject({ ok: false, message: USER_ERRORS.inactiveActor });
    expect(findUser({ branchId: null }, a.slug)).not.toBeNull();
    expect(await addUser(actorOf(b), newUser())).toMatchObject({ ok: false, code: "forbidden" });
  });
});

describe("the last head-office user holding every permission", () => {
  it("cannot be deleted, demoted or moved to a branch; with a second one it can", async () => {
    // Leave exactly one head-office full administrator.
    db.update(schema.users)
      .set({ deleted_at: new Date().toISOString() })
      .where(and(isNull(schema.users.branch_id), ne(schema.users.id, admin.id)))
      .run();
    // A branch user holding every permission does not count.
    const branchSuper = await make(SYSTEM_ACTOR, { role_id: roleBySlug("super-admin")!.id, branch_id: branchB });
    const other = await make(SYSTEM_ACTOR, { role_id: roleBySlug("super-admin")!.id, branch_id: branchA });
    const deleted = deleteUser(actorOf(branchSuper), admin.slug);
    expect(deleted).toMatchObject({ ok: false, code: "not_found" }); // a branch user does not reach head office
    const byOther = deleteUser(SYSTEM_ACTOR, admin.slug);
    expect(byOther).toMatchObject({ ok: false, code: "conflict", message: USER_ERRORS.lastAdminDelete });

    const demoted = await updateUser(
      SYSTEM_ACTOR,
      admin.slug,
      editValues(admin.slug, { role_id: roleBySlug("branch-manager")!.id, branch_id: branchA }),
    );
    expect(demoted).toMatchObject({
      ok: false,
      errors: { role_id: [USER_ERRORS.lastAdminRole], branch_id: [USER_ERRORS.lastAdminBranch] },
    });
    expect(getSessionUser(admin.id)?.role.title).toBe("Super Admin");

    // Moving a branch super admin to head office makes a second one: now the first can go.
    const promoted = await updateUser(SYSTEM_ACTOR, other.slug, editValues(other.slug, { branch_id: "" }));
    expect(promoted.ok).toBe(true);
    const demotedNow = await updateUser(
      actorOf({ ...other, branch_id: null }),
      admin.slug,
      editValues(admin.slug, { role_id: roleBySlug("branch-manager")!.id }),
    );
    expect(demotedNow.ok).toBe(true);
    expect(getSessionUser(admin.id)?.permissions).not.toContain("read-user");
    // And the one left cannot demote itself either.
    const self = await updateUser(
      actorOf({ ...other, branch_id: null }),
      other.slug,
      editValues(other.slug, { role_id: roleBySlug("branch-staff")!.id }),
    );
    expect(self).toMatchObject({ ok: false, errors: { role_id: [USER_ERRORS.lastAdminRole] } });
    // Restore the first administrator for the tests below.
    const back = await updateUser(
      SYSTEM_ACTOR,
      admin.slug,
      editValues(admin.slug, { role_id: roleBySlug("super-admin")!.id }),
    );
    expect(back.ok).toBe(true);
  });
});

describe("the role matrix", () => {
  it("Super Admin is locked; other roles change, audited, and apply on the user's next request", async () => {
    const matrix = listRoleMatrix();
    const superAdmin = matrix.find((r) => r.slug === "super-admin")!;
    expect(superAdmin.locked).toBe(true);
    const locked = saveRoleMatrix(actorOf(admin), [{ role_id: superAdmin.id, permissions: ["read-user"] }]);
    expect(locked).toMatchObject({ ok: false, errors: { [`role.${superAdmin.id}`]: [ROLE_MESSAGES.locked] } });

    const staffRole = roleBySlug("branch-staff")!;
    const user = await make(actorOf(admin), { branch_id: branchA });
    await sessionRowFor(user.id);
    const before = getSessionUser(user.id)!.permissions;
    expect(before).not.toContain("delete-registration");
    const saved = saveRoleMatrix(actorOf(admin), [
      { role_id: staffRole.id, permissions: [...before, "delete-registration"] },
      { role_id: superAdmin.id, permissions: superAdmin.permissions },
    ]);
    expect(saved).toMatchObject({ ok: true, changed: ["Branch Staff"] });
    expect(getSessionUser(user.id)!.permissions).toContain("delete-registration");
    expect(liveSessions(user.id)).toBe(1); // read per request: the session goes on with the new permissions
    const [row] = auditRows("role.update", "branch-staff");
    expect(JSON.parse(row.changes).added).toEqual({ before: null, after: ["delete-registration"] });
    // Put it back.
    expect(saveRoleMatrix(actorOf(admin), [{ role_id: staffRole.id, permissions: before }]).ok).toBe(true);

    const bogus = saveRoleMatrix(actorOf(admin), [{ role_id: staffRole.id, permissions: ["make-coffee"] }]);
    expect(bogus).toMatchObject({ ok: false, errors: { [`role.${staffRole.id}`]: [ROLE_MESSAGES.unknownPermission] } });
  });

  it("two admins on the matrix at once: a role one did not touch keeps the other's change; changing a role the other changed meanwhile is refused", async () => {
    const staffRole = roleBySlug("branch-staff")!;
    const managerRole = roleBySlug("branch-manager")!;
    const loaded = listRoleMatrix();
    const staffLoaded = loaded.find((r) => r.id === staffRole.id)!.permissions;
    const managerLoaded = loaded.find((r) => r.id === managerRole.id)!.permissions;
    // The other admin adds View videos to Branch Staff.
    const other = saveRoleMatrix(actorOf(admin), [
      { role_id: staffRole.id, permissions: [...staffLoaded, "read-video"] },
    ]);
    expect(other).toMatchObject({ ok: true, changed: ["Branch Staff"] });
    // This admin's page still shows Branch Staff as loaded; they change Branch Manager only.
    const mine = saveRoleMatrix(actorOf(admin), [
      { role_id: staffRole.id, permissions: staffLoaded, loaded: staffLoaded },
      { role_id: managerRole.id, permissions: [...managerLoaded, "read-video"], loaded: managerLoaded },
    ]);
    expect(mine).toMatchObject({ ok: true, changed: ["Branch Manager"] });
    expect(listRoleMatrix().find((r) => r.id === staffRole.id)!.permissions).toContain("read-video");
    // Changing Branch Staff from the stale page is refused, and nothing of that save is written.
    const stale = saveRoleMatrix(actorOf(admin), [
      { role_id: staffRole.id, permissions: [...staffLoaded, "send-sms"], loaded: staffLoaded },
      { role_id: managerRole.id, permissions: managerLoaded, loaded: [...managerLoaded, "read-video"] },
    ]);
    expect(stale).toMatchObject({ ok: false, errors: { [`role.${staffRole.id}`]: [ROLE_MESSAGES.changedMeanwhile] } });
    expect(listRoleMatrix().find((r) => r.id === staffRole.id)!.permissions).not.toContain("send-sms");
    expect(listRoleMatrix().find((r) => r.id === managerRole.id)!.permissions).toContain("read-video");
    // Put both back.
    expect(
      saveRoleMatrix(actorOf(admin), [
        { role_id: staffRole.id, permissions: staffLoaded },
        { role_id: managerRole.id, permissions: managerLoaded },
      ]).ok,
    ).toBe(true);
  });

  it("nobody gives a permission they lack; the last full administrators' custom role keeps every permission", async () => {
    const limited = saveRoleMatrix(actorOf(branchAdmin), [
      { role_id: roleBySlug("branch-staff")!.id, permissions: ["read-registration", "send-sms"] },
    ]);
    expect(limited.ok).toBe(false);
    if (!limited.ok) expect(Object.values(limited.errors)[0][0]).toBe(ROLE_MESSAGES.notHeld(["send-sms"]));

    // Head office's only full administrators hold a custom all-permission role.
    const all = createRole(SYSTEM_ACTOR, { title: "Owners", permissions: listRoleMatrix()[0].permissions });
    if (!all.ok) throw new Error(all.message);
    const owner = await make(SYSTEM_ACTOR, { role_id: all.role.id });
    db.update(schema.users)
      .set({ role_id: roleBySlug("branch-manager")!.id })
      .where(and(isNull(schema.users.branch_id), isNull(schema.users.deleted_at), ne(schema.users.id, owner.id)))
      .run();
    const cut = saveRoleMatrix(actorOf(owner), [{ role_id: all.role.id, permissions: ["read-user"] }]);
    expect(cut).toMatchObject({ ok: false, errors: { form: [ROLE_MESSAGES.lastFull] } });
    expect(getSessionUser(owner.id)!.permissions).toHaveLength(listRoleMatrix()[0].permissions.length);
    db.update(schema.users)
      .set({ role_id: roleBySlug("super-admin")!.id })
      .where(eq(schema.users.id, admin.id))
      .run();
  });

  it("a new role needs a unique title and permissions the actor holds", () => {
    const made = createRole(actorOf(admin), { title: "Showroom Greeter", permissions: ["read-registration"] });
    expect(made).toMatchObject({ ok: true, role: { slug: "showroom-greeter", title: "Showroom Greeter" } });
    const again = createRole(actorOf(admin), { title: "showroom greeter", permissions: [] });
    expect(again).toMatchObject({ ok: false, errors: { title: [ROLE_MESSAGES.titleTaken] } });
    const beyond = createRole(actorOf(branchAdmin), { title: "Bigger", permissions: ["send-sms"] });
    expect(beyond).toMatchObject({ ok: false, errors: { permissions: [ROLE_MESSAGES.notHeld(["send-sms"])] } });
    expect(auditRows("role.create", "showroom-greeter")).toHaveLength(1);
  });
});
