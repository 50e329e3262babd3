/**
 * The dealer users area (spec 001 §2; docs/decisions/0012-users-and-roles.md):
 * list, detail, create, edit and delete staff users, with the rules against
 * escalation:
 * - a user only gives a role whose permissions they hold themselves, and only
 *   changes or deletes users whose permissions they hold;
 * - a branch user sees and manages only its own branch's users (the scope is in
 *   every query) and only makes users of its own branch;
 * - the last head-office user holding every permission cannot be deleted,
 *   demoted or moved to a branch; nobody deletes themselves;
 * - deleting a user, or changing their role, branch or password, ends their
 *   sessions and revokes their API tokens in the same transaction.
 * Signing in, the signed-in user and passwords are in user.server.ts.
 */
import { and, asc, count as countRows, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { db, schema, type Executor, type Tx } from "@db/index";
import type { User } from "@db/schema";
import { audit, diff, type Changes } from "./audit.server";
import { fail, FailureError, type FieldErrors, type Result } from "~/utils/failure";
import { branchCondition, type Scope, type ScopedActor, isHeadOffice } from "./scope.server";
import { transact } from "./transaction.server";
import { hashPassword, randomSlug } from "~/utils/crypto.server";
import { likeContains, runTable, type TableParams, type TableResult } from "~/utils/datatable.server";
import { PERMISSIONS, permissionLabel, type Permission } from "~/utils/permissions";
import { USER_MESSAGES, type UserCreateInput, type UserFilters, type UserUpdateInput } from "~/schemas/user";
import { endSessions, listRoles, passwordProblem, permissionsOfRole } from "./user.server";

const { users, roles, branches, rolePermissions, permissions } = schema;

// ---------------------------------------------------------------- dealer users: reading

export const USER_ERRORS = {
  notFound: "User not found.",
  self: "You cannot delete your own account.",
  ownPassword: "Change your own password on the Profile page.",
  otherBranch: "You can only manage users of your own branch.",
  roleNotHeld: (names: string[]) =>
    `You cannot give a role with permissions you do not hold yourself: ${names.map(permissionLabel).join(", ")}.`,
  targetNotHeld: "This user holds permissions you do not hold yourself, so you cannot change or delete this user.",
  inactiveActor: "Your account is no longer active.",
  lastAdminDelete: "This is the last head-office user holding every permission: it cannot be deleted.",
  lastAdminRole: "The last head-office user holding every permission must keep a role with every permission.",
  lastAdminBranch: "The last head-office user holding every permission must stay at head office.",
} as const;

/** The users a scope reaches: live ones; a branch user only its own branch's (never head office). */
function userScope(scope: Scope) {
  return and(isNull(users.deleted_at), branchCondition(users.branch_id, scope));
}

export type UserRow = {
  slug: string;
  name: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  sex: "MALE" | "FEMALE" | "OTHERS";
  address: string | null;
  branch_id: number | null;
  branch: { id: number; title: string } | null;
  role_id: number;
  role: { id: number; title: string };
  created_at: string;
  updated_at: string;
};

export type UserDetail = UserRow & { id: number; permissions: Permission[] };

const rowColumns = {
  id: users.id,
  slug: users.slug,
  name: users.name,
  first_name: users.first_name,
  last_name: users.last_name,
  email: users.email,
  phone: users.phone,
  sex: users.sex,
  address: users.address,
  branch_id: users.branch_id,
  branch_title: branches.title,
  role_id: users.role_id,
  role_title: roles.title,
  created_at: users.created_at,
  updated_at: users.updated_at,
};

/** A row as the query reads it: the branch and role titles beside their ids. */
type RawRow = Omit<UserRow, "branch" | "role"> & { id: number; branch_title: string | null; role_title: string };

/** The columns the user form sets, the same on create and update. */
function formColumns(input: UserCreateInput | UserUpdateInput, branchId: number | null) {
  return {
    first_name: input.first_name,
    last_name: input.last_name ?? "",
    name: fullName(input.first_name, input.last_name),
    email: input.email,
    phone: input.phone,
    sex: input.sex,
    address: input.address ?? null,
    branch_id: branchId,
    role_id: input.role_id,
  };
}

function toRow(r: RawRow): UserRow & { id: number } {
  const { branch_title, role_title, ...rest } = r;
  return {
    ...rest,
    branch: r.branch_id !== null ? { id: r.branch_id, title: branch_title ?? "" } : null,
    role: { id: r.role_id, title: role_title },
  };
}

/** The users list (name, email, role; branch too), searchable by name, e-mail, phone and role. */
export function listUsers(scope: Scope, params: TableParams, filters: UserFilters = {}): TableResult<UserRow> {
  const branchFilter =
    filters.branch_id === "head-office"
      ? isNull(users.branch_id)
      : filters.branch_id
        ? eq(users.branch_id, Number(filters.branch_id))
        : undefined;
  const from = () =>
    db
      .select(rowColumns)
      .from(users)
      .innerJoin(roles, eq(roles.id, users.role_id))
      .leftJoin(branches, eq(branches.id, users.branch_id));
  return runTable<UserRow>(params, {
    orderable: {
      name: users.name,
      email: users.email,
      role: roles.title,
      branch: branches.title,
      created_at: users.created_at,
    },
    defaultOrder: { column: "name", dir: "asc" },
    base: [userScope(scope)],
    filters: [filters.role_id ? eq(users.role_id, filters.role_id) : undefined, branchFilter],
    search: (term) =>
      or(
        likeContains(users.name, term),
        likeContains(users.email, term),
        likeContains(users.phone, term),
        likeContains(roles.title, term),
      ),
    count: (where) =>
      db
        .select({ n: countRows() })
        .from(users)
        .innerJoin(roles, eq(roles.id, users.role_id))
        .leftJoin(branches, eq(branches.id, users.branch_id))
        .where(where)
        .get()?.n ?? 0,
    rows: (where, orderBy, limit, offset) =>
      from()
        .where(where)
        .orderBy(...orderBy, asc(users.id))
        .limit(limit)
        .offset(offset)
        .all()
        .map((r) => {
          const { id: _id, ...row } = toRow(r as RawRow);
          return row;
        }),
  });
}

/** One user the scope reaches, with the permissions of their role; null otherwise. */
export function findUser(scope: Scope, slug: string): UserDetail | null {
  const r = db
    .select(rowColumns)
    .from(users)
    .innerJoin(roles, eq(roles.id, users.role_id))
    .leftJoin(branches, eq(branches.id, users.branch_id))
    .where(and(eq(users.slug, slug), userScope(scope)))
    .get();
  if (!r) return null;
  const row = toRow(r as RawRow);
  return { ...row, permissions: permissionsOfRole(row.role_id) };
}

/** Whether `held` covers every permission of `needed` (a role given, a user changed). */
export const holdsAll = (held: readonly string[], needed: readonly string[]) => needed.every((p) => held.includes(p));

/**
 * What the user form offers an actor: the branches they may put a user in
 * (head office: every branch and Head Office; a branch user: its own) and the
 * roles they may give (those whose permissions they hold). Only the options:
 * the model checks every submitted value again.
 */
export function userFormOptions(actor: { scope: Scope; permissions: readonly string[] }) {
  const branchRows = db
    .select({ id: branches.id, title: branches.title })
    .from(branches)
    .where(and(isNull(branches.deleted_at), isNull(branches.closed_at), branchCondition(branches.id, actor.scope)))
    .orderBy(asc(branches.title), asc(branches.id))
    .all();
  const roleRows = listRoles()
    .map((r) => ({ ...r, permissions: permissionsOfRole(r.id) }))
    .filter((r) => holdsAll(actor.permissions, r.permissions));
  return {
    headOffice: isHeadOffice(actor.scope),
    branches: branchRows,
    roles: roleRows.map(({ id, title }) => ({ id, title })),
  };
}

// ---------------------------------------------------------------- dealer users: changes

const ENTITY = "user";

/** The permissions the acting user holds now, read inside the transaction; the system holds every one. */
function actorPermissions(tx: Tx, actor: ScopedActor): Permission[] {
  if (actor.id === null) return [...PERMISSIONS];
  const row = tx
    .select({ role_id: users.role_id })
    .from(users)
    .where(and(eq(users.id, actor.id), isNull(users.deleted_at)))
    .get();
  if (!row) throw new FailureError(fail.forbidden(USER_ERRORS.inactiveActor));
  return permissionsOfRole(row.role_id, tx);
}

/** Ids of the roles that hold every permission. */
export function fullRoleIds(exec: Executor = db): number[] {
  return exec
    .select({ role_id: rolePermissions.role_id })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permission_id))
    .where(inArray(permissions.name, [...PERMISSIONS]))
    .groupBy(rolePermissions.role_id)
    .having(sql`count(distinct ${permissions.name}) = ${PERMISSIONS.length}`)
    .all()
    .map((r) => r.role_id);
}

/** Live head-office users holding every permission, but the one left out. */
export function countFullAdmins(exec: Executor, exceptUserId?: number): number {
  const full = fullRoleIds(exec);
  if (!full.length) return 0;
  return (
    exec
      .select({ n: countRows() })
      .from(users)
      .where(
        and(
          isNull(users.deleted_at),
          isNull(users.branch_id),
          inArray(users.role_id, full),
          exceptUserId !== undefined ? ne(users.id, exceptUserId) : undefined,
        ),
      )
      .get()?.n ?? 0
  );
}

function reachableUser(tx: Tx, scope: Scope, slug: string): User {
  const row = tx
    .select()
    .from(users)
    .where(and(eq(users.slug, slug), userScope(scope)))
    .get();
  if (!row) throw new FailureError(fail.notFound(USER_ERRORS.notFound));
  return row;
}

/**
 * The branch a user is put in: head office any active branch or none; a
 * branch user always its own (an empty choice means its own).
 */
/** The branch a user is given: an open one (a user may keep the branch they have, though closed since). */
function chooseBranch(
  tx: Tx,
  scope: Scope,
  wanted: number | undefined,
  errors: FieldErrors,
  current?: number | null,
): number | null {
  if (!isHeadOffice(scope)) {
    if (wanted !== undefined && wanted !== scope.branchId) errors.branch_id = [USER_ERRORS.otherBranch];
    return scope.branchId;
  }
  if (wanted === undefined) return null;
  const found = tx
    .select({ id: branches.id })
    .from(branches)
    .where(
      and(
        eq(branches.id, wanted),
        isNull(branches.deleted_at),
        wanted === current ? undefined : isNull(branches.closed_at),
      ),
    )
    .get();
  if (!found) errors.branch_id = [USER_MESSAGES.branch];
  return wanted;
}

/** The role exists and the actor holds every one of its permissions. */
function checkRole(tx: Tx, roleId: number, held: readonly Permission[], errors: FieldErrors): void {
  const role = tx.select({ id: roles.id }).from(roles).where(eq(roles.id, roleId)).get();
  if (!role) {
    errors.role_id = [USER_MESSAGES.roleMissing];
    return;
  }
  const lacking = permissionsOfRole(roleId, tx).filter((p) => !held.includes(p));
  if (lacking.length) errors.role_id = [USER_ERRORS.roleNotHeld(lacking)];
}

function emailTaken(tx: Tx, email: string, exceptUserId?: number): boolean {
  return Boolean(
    tx
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          sql`lower(${users.email}) = ${email.toLowerCase()}`,
          exceptUserId !== undefined ? ne(users.id, exceptUserId) : undefined,
        ),
      )
      .get(),
  );
}

/** A user as the audit trail records it: no hash, ids for role and branch. */
function auditView(u: User) {
  return {
    first_name: u.first_name,
    last_name: u.last_name,
    name: u.name,
    email: u.email,
    phone: u.phone,
    sex: u.sex,
    address: u.address,
    branch_id: u.branch_id,
    role_id: u.role_id,
  };
}

const PASSWORD_SET: Changes = { password: { before: "•••", after: "•••" } };

function detailOf(tx: Tx, id: number): UserDetail {
  const r = tx
    .select(rowColumns)
    .from(users)
    .innerJoin(roles, eq(roles.id, users.role_id))
    .leftJoin(branches, eq(branches.id, users.branch_id))
    .where(eq(users.id, id))
    .get()!;
  const row = toRow(r as RawRow);
  return { ...row, permissions: permissionsOfRole(row.role_id, tx) };
}

const fullName = (first: string, last?: string | null) => `${first} ${last ?? ""}`.trim();

/**
 * Creates a dealer user from values parsed by userCreateSchema. Refused with
 * field errors: an e-mail already taken, a common password, a role with a
 * permission the actor lacks, a branch the actor may not use.
 */
export async function addUser(actor: ScopedActor, input: UserCreateInput): Promise<Result<{ user: UserDetail }>> {
  const problem = await passwordProblem(input.password, input.email);
  const password_hash = problem ? "" : await hashPassword(input.password);
  return transact((tx) => {
    const held = actorPermissions(tx, actor);
    const errors: FieldErrors = {};
    const branchId = chooseBranch(tx, actor.scope, input.branch_id, errors);
    checkRole(tx, input.role_id, held, errors);
    if (emailTaken(tx, input.email)) errors.email = [USER_MESSAGES.emailTaken];
    if (problem) errors.password = [problem];
    if (Object.keys(errors).length) throw new FailureError(fail.invalid(errors));
    const row = tx
      .insert(users)
      .values({
        slug: randomSlug(),
        ...formColumns(input, branchId),
        password_hash,
      })
      .returning()
      .get();
    audit(tx, actor, {
      action: "user.create",
      entityType: ENTITY,
      entityId: row.slug,
      changes: { ...diff(null, auditView(row)), password: { before: null, after: "•••" } },
    });
    return { ok: true as const, user: detailOf(tx, row.id) };
  });
}

/**
 * Changes a dealer user from values parsed by userUpdateSchema; an absent
 * password keeps the old one. Beyond the create rules: the actor must hold
 * every permission the user holds now; one's own password is changed on the
 * Profile page (with the current one); the last head-office user holding every
 * permission keeps a full role and stays at head office. A change of role,
 * branch or password ends the user's sessions and API tokens.
 */
export async function updateUser(
  actor: ScopedActor,
  slug: string,
  input: UserUpdateInput,
): Promise<Result<{ user: UserDetail; sessionsEnded: boolean }>> {
  const problem = input.password ? await passwordProblem(input.password, input.email) : null;
  const password_hash = input.password && !problem ? await hashPassword(input.password) : null;
  return transact((tx) => {
    const before = reachableUser(tx, actor.scope, slug);
    const held = actorPermissions(tx, actor);
    if (!holdsAll(held, permissionsOfRole(before.role_id, tx))) {
      throw new FailureError(fail.forbidden(USER_ERRORS.targetNotHeld));
    }
    const errors: FieldErrors = {};
    const branchId = chooseBranch(tx, actor.scope, input.branch_id, errors, before.branch_id);
    if (input.role_id !== before.role_id) checkRole(tx, input.role_id, held, errors);
    if (emailTaken(tx, input.email, before.id)) errors.email = [USER_MESSAGES.emailTaken];
    if (input.password && before.id === actor.id) errors.password = [USER_ERRORS.ownPassword];
    else if (problem) errors.password = [problem];
    const full = fullRoleIds(tx);
    const wasFull = before.branch_id === null && full.includes(before.role_id);
    if (wasFull && countFullAdmins(tx, before.id) === 0) {
      if (!full.includes(input.role_id)) errors.role_id = [USER_ERRORS.lastAdminRole];
      if (branchId !== null) errors.branch_id = [USER_ERRORS.lastAdminBranch];
    }
    if (Object.keys(errors).length) throw new FailureError(fail.invalid(errors));

    const after = tx
      .update(users)
      .set({
        ...formColumns(input, branchId),
        ...(password_hash ? { password_hash } : {}),
        updated_at: new Date().toISOString(),
      })
      .where(eq(users.id, before.id))
      .returning()
      .get();
    const sessionsEnded =
      Boolean(password_hash) || after.role_id !== before.role_id || after.branch_id !== before.branch_id;
    if (sessionsEnded) endSessions(tx, before.id);
    audit(tx, actor, {
      action: "user.update",
      entityType: ENTITY,
      entityId: before.slug,
      changes: { ...diff(auditView(before), auditView(after)), ...(password_hash ? PASSWORD_SET : {}) },
    });
    return { ok: true as const, user: detailOf(tx, before.id), sessionsEnded };
  });
}

/**
 * Deletes a dealer user (soft: the row stays for the records that name it, its
 * e-mail is freed for a new account). Refused for oneself, for a user holding
 * permissions the actor lacks, and for the last head-office user holding every
 * permission. Their sessions and API tokens end at once.
 */
export function deleteUser(actor: ScopedActor, slug: string): Result<{ user: { slug: string; name: string } }> {
  return transact((tx) => {
    const target = reachableUser(tx, actor.scope, slug);
    if (target.id === actor.id) throw new FailureError(fail.forbidden(USER_ERRORS.self));
    const held = actorPermissions(tx, actor);
    if (!holdsAll(held, permissionsOfRole(target.role_id, tx))) {
      throw new FailureError(fail.forbidden(USER_ERRORS.targetNotHeld));
    }
    const wasFull = target.branch_id === null && fullRoleIds(tx).includes(target.role_id);
    if (wasFull && countFullAdmins(tx, target.id) === 0) {
      throw new FailureError(fail.conflict(USER_ERRORS.lastAdminDelete));
    }
    const now = new Date().toISOString();
    tx.update(users)
      .set({ deleted_at: now, updated_at: now, email: `${target.email}#deleted-${target.id}` })
      .where(eq(users.id, target.id))
      .run();
    endSessions(tx, target.id);
    audit(tx, actor, {
      action: "user.delete",
      entityType: ENTITY,
      entityId: target.slug,
      changes: diff(auditView(target), null),
    });
    return { ok: true as const, user: { slug: target.slug, name: target.name } };
  });
}
