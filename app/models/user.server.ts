/**
 * Staff users: signing in, the signed-in user with role and permissions,
 * account creation (the seeds and the CLI), sessions ended, and passwords
 * (setting, changing, the common-password list). The dealer users area
 * (list, detail, create, edit, delete) and its rules against escalation are
 * in dealer-user.server.ts. See docs/decisions/0012-users-and-roles.md.
 */
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import { prepared } from "@db/prepared";
import { clear, hit } from "~/utils/rate-limit.server";
import { audit, type Actor } from "./audit.server";
import { fail, type Failure } from "~/utils/failure";
import { transact } from "./transaction.server";
import { DUMMY_PASSWORD_HASH, hashPassword, randomSlug, verifyPassword } from "~/utils/crypto.server";
import { type Permission } from "~/utils/permissions";
import { USER_MESSAGES } from "~/schemas/user";

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

// Read on every back-office request: built and compiled once.
const permissionsQuery = prepared((q) =>
  q
    .select({ name: permissions.name })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permission_id))
    .where(eq(rolePermissions.role_id, sql.placeholder("roleId")))
    .orderBy(permissions.id)
    .prepare(),
);

export function permissionsOfRole(roleId: number, exec: Executor = db): Permission[] {
  return permissionsQuery(exec)
    .all({ roleId })
    .map((r) => r.name as Permission);
}

const sessionUserQuery = prepared((q) =>
  q
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
    .where(and(eq(users.id, sql.placeholder("id")), isNull(users.deleted_at)))
    .prepare(),
);

/** The active user with role, branch and permission list, or null. */
export function getSessionUser(id: number): SessionUser | null {
  const row = sessionUserQuery(db).get({ id });
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

/**
 * Ends a user's back-office sessions and revokes their API tokens, all of them
 * or all but the session whose cookie id hashes to `keepSessionHash`.
 */
export function endSessions(exec: Executor, userId: number, keepSessionHash?: string) {
  exec
    .delete(schema.sessions)
    .where(
      and(eq(schema.sessions.user_id, userId), keepSessionHash ? ne(schema.sessions.id, keepSessionHash) : undefined),
    )
    .run();
  exec
    .update(schema.apiTokens)
    .set({ revoked_at: new Date().toISOString() })
    .where(and(eq(schema.apiTokens.user_id, userId), isNull(schema.apiTokens.revoked_at)))
    .run();
}

/**
 * Sets a new password in one transaction with its consequences: every other
 * session and every API token of the user ends, and the change is audited.
 */
export async function setPassword(actor: Actor, userId: number, password: string, keepSessionHash?: string) {
  const password_hash = await hashPassword(password);
  transact((tx) => {
    tx.update(users).set({ password_hash, updated_at: new Date().toISOString() }).where(eq(users.id, userId)).run();
    endSessions(tx, userId, keepSessionHash);
    audit(tx, actor, {
      action: "user.password",
      entityType: "user",
      entityId: userId,
      changes: { password: { before: "•••", after: "•••" } },
    });
  });
}

export function roleBySlug(slug: string) {
  return db.select().from(roles).where(eq(roles.slug, slug)).get();
}

export function listRoles() {
  return db.select({ id: roles.id, slug: roles.slug, title: roles.title }).from(roles).orderBy(roles.id).all();
}

export const WRONG_CURRENT_PASSWORD = "The current password is incorrect.";

/**
 * Changes one's own password after checking the current one. Guesses at the
 * current password are limited like logins (a point is taken before the
 * check); a change ends every other session and every API token, keeping the
 * session it was made from.
 */
export async function changePassword(
  actor: Actor & { id: number },
  input: { current: string; next: string },
  keepSessionHash?: string,
): Promise<{ ok: true } | Failure> {
  const limited = hit("password-check", String(actor.id));
  if (!limited.ok) return fail.rateLimited(limited.retryAfterSeconds);
  const user = db.select().from(users).where(eq(users.id, actor.id)).get();
  if (!user || !(await verifyPassword(input.current, user.password_hash))) {
    return fail.field("current_password", WRONG_CURRENT_PASSWORD);
  }
  const problem = await passwordProblem(input.next, user.email);
  if (problem) return fail.field("password", problem);
  await setPassword(actor, actor.id, input.next, keepSessionHash);
  transact((tx) => clear(tx, "password-check", String(actor.id)));
  return { ok: true };
}

// ---------------------------------------------------------------- passwords

let commonPasswords: Set<string> | null = null;

/**
 * The commonly used passwords: the ranked list of @zxcvbn-ts/language-common
 * (about 49,000 passwords from public leaks, maintained with zxcvbn-ts), read
 * once on first use. Compared without regard to letter case.
 */
async function commonPasswordList(): Promise<Set<string>> {
  if (!commonPasswords) {
    const { dictionary } = await import("@zxcvbn-ts/language-common");
    commonPasswords = new Set((dictionary["passwords-common"] as string[]).map((p) => p.toLowerCase()));
  }
  return commonPasswords;
}

/**
 * Why a new password is refused beyond its length (checked by the schema), or
 * null: it is one of the commonly used passwords, or the account's e-mail.
 */
export async function passwordProblem(password: string, email?: string | null): Promise<string | null> {
  const lower = password.normalize("NFKC").toLowerCase();
  if (email && lower === email.trim().toLowerCase()) return USER_MESSAGES.passwordIsEmail;
  if ((await commonPasswordList()).has(lower)) return USER_MESSAGES.passwordCommon;
  return null;
}
