/** Staff users: login, the signed-in user with role and permissions, account creation, passwords. */
import { and, eq, isNull, sql } from "drizzle-orm";
import { db, schema } from "@db/index";
import { DUMMY_PASSWORD_HASH, hashPassword, randomSlug, verifyPassword } from "~/utils/crypto.server";
import type { Permission } from "~/utils/permissions";

export type SessionUser = {
  id: number;
  slug: string;
  name: string;
  email: string;
  phone: string | null;
  branch_id: number | null;
  branch: { id: number; title: string } | null;
  role: { id: number; title: string };
  permissions: Permission[];
  isAdmin: boolean;
};

const { users, roles, branches, rolePermissions, permissions } = schema;

export function permissionsOfRole(roleId: number): Permission[] {
  return db
    .select({ name: permissions.name })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permission_id))
    .where(eq(rolePermissions.role_id, roleId))
    .orderBy(permissions.id)
    .all()
    .map((r) => r.name as Permission);
}

/** The active user with role, branch and permission list, or null. */
export function getSessionUser(id: number): SessionUser | null {
  const row = db
    .select({
      id: users.id,
      slug: users.slug,
      name: users.name,
      email: users.email,
      phone: users.phone,
      branch_id: users.branch_id,
      role_id: users.role_id,
      role_title: roles.title,
      branch_title: branches.title,
    })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.role_id))
    .leftJoin(branches, eq(branches.id, users.branch_id))
    .where(and(eq(users.id, id), isNull(users.deleted_at)))
    .get();
  if (!row) return null;
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    email: row.email,
    phone: row.phone,
    branch_id: row.branch_id,
    branch: row.branch_id ? { id: row.branch_id, title: row.branch_title ?? "" } : null,
    role: { id: row.role_id, title: row.role_title },
    permissions: permissionsOfRole(row.role_id),
    isAdmin: row.branch_id === null,
  };
}

export function findUserByEmail(email: string) {
  return db
    .select()
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`, isNull(users.deleted_at)))
    .get();
}

/** Checks an e-mail and password; the same work is done for unknown e-mails. */
export async function verifyLogin(email: string, password: string): Promise<SessionUser | null> {
  const user = findUserByEmail(email);
  const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_PASSWORD_HASH);
  if (!user || !ok) return null;
  return getSessionUser(user.id);
}

export type NewUser = {
  first_name: string;
  last_name?: string;
  email: string;
  phone?: string | null;
  sex?: "MALE" | "FEMALE" | "OTHERS";
  address?: string | null;
  branch_id?: number | null;
  role_id: number;
  password: string;
};

export async function createUser(input: NewUser) {
  const password_hash = await hashPassword(input.password);
  const last = input.last_name ?? "";
  return db
    .insert(users)
    .values({
      slug: randomSlug(),
      first_name: input.first_name,
      last_name: last,
      name: `${input.first_name} ${last}`.trim(),
      email: input.email.trim().toLowerCase(),
      phone: input.phone ?? null,
      sex: input.sex ?? "MALE",
      address: input.address ?? null,
      branch_id: input.branch_id ?? null,
      role_id: input.role_id,
      password_hash,
    })
    .returning()
    .get();
}

export async function setPassword(userId: number, password: string) {
  const password_hash = await hashPassword(password);
  db.update(users).set({ password_hash, updated_at: new Date().toISOString() }).where(eq(users.id, userId)).run();
}

export function roleBySlug(slug: string) {
  return db.select().from(roles).where(eq(roles.slug, slug)).get();
}

export function listRoles() {
  return db.select({ id: roles.id, slug: roles.slug, title: roles.title }).from(roles).orderBy(roles.id).all();
}

/** Changes one's own password after checking the current one. */
export async function changePassword(userId: number, current: string, next: string): Promise<boolean> {
  const user = db.select().from(users).where(eq(users.id, userId)).get();
  if (!user || !(await verifyPassword(current, user.password_hash))) return false;
  await setPassword(userId, next);
  return true;
}
