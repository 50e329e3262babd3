/**
 * Roles and their permissions (the role × permission matrix of /admin/role).
 *
 * - Super Admin is locked: it keeps every permission, so head office can never
 *   lock itself out through the matrix.
 * - Nobody gives a permission they do not hold themselves.
 * - A change that would leave no live head-office user holding every
 *   permission is refused (a custom role with every permission can carry the
 *   last administrators too).
 * - A role's permissions are read from the database on every request
 *   (getSessionUser), so a change applies to its users on their next request;
 *   their sessions and tokens are not ended.
 * Every change writes a role.update (or role.create) audit row in its own
 * transaction.
 */
import { asc, count as countRows, eq, isNull, sql } from "drizzle-orm";
import { db, schema, type Tx } from "@db/index";
import { audit } from "./audit.server";
import { fail, FailureError, type FieldErrors, type Result } from "~/utils/failure";
import type { ScopedActor } from "./scope.server";
import { transact } from "./transaction.server";
import { permissionsOfRole } from "./user.server";
import { countFullAdmins } from "./dealer-user.server";
import { PERMISSIONS, type Permission } from "~/utils/permissions";
import { ROLE_MESSAGES } from "~/schemas/user";

const { roles, permissions, rolePermissions, users } = schema;

/** The role that always keeps every permission. */
export const LOCKED_ROLE = "super-admin";

export type RoleWithPermissions = {
  id: number;
  slug: string;
  title: string;
  permissions: Permission[];
  users: number;
  locked: boolean;
};

/** Every role with its permissions and its number of live users, in creation order. */
export function listRoleMatrix(): RoleWithPermissions[] {
  const counts = new Map(
    db
      .select({ role_id: users.role_id, n: countRows() })
      .from(users)
      .where(isNull(users.deleted_at))
      .groupBy(users.role_id)
      .all()
      .map((r) => [r.role_id, r.n]),
  );
  return db
    .select({ id: roles.id, slug: roles.slug, title: roles.title })
    .from(roles)
    .orderBy(asc(roles.id))
    .all()
    .map((r) => ({
      ...r,
      permissions: permissionsOfRole(r.id),
      users: counts.get(r.id) ?? 0,
      locked: r.slug === LOCKED_ROLE,
    }));
}

/** The permissions the acting user holds now (the system: every one). */
function heldBy(tx: Tx, actor: ScopedActor): Permission[] {
  if (actor.id === null) return [...PERMISSIONS];
  const row = tx.select({ role_id: users.role_id }).from(users).where(eq(users.id, actor.id)).get();
  return row ? permissionsOfRole(row.role_id, tx) : [];
}

function permissionIds(tx: Tx): Map<string, number> {
  return new Map(
    tx
      .select()
      .from(permissions)
      .all()
      .map((p) => [p.name, p.id]),
  );
}

function writePermissions(tx: Tx, roleId: number, names: readonly string[], ids: Map<string, number>) {
  tx.delete(rolePermissions).where(eq(rolePermissions.role_id, roleId)).run();
  for (const name of names) {
    tx.insert(rolePermissions)
      .values({ role_id: roleId, permission_id: ids.get(name)! })
      .run();
  }
}

const ordered = (names: readonly string[]) => PERMISSIONS.filter((p) => names.includes(p));

function checkNames(names: readonly string[], held: readonly Permission[]): string | null {
  const unknown = names.filter((n) => !(PERMISSIONS as readonly string[]).includes(n));
  if (unknown.length) return ROLE_MESSAGES.unknownPermission;
  const lacking = names.filter((n) => !held.includes(n as Permission));
  return lacking.length ? ROLE_MESSAGES.notHeld(lacking) : null;
}

/**
 * A role's permissions as sent; `loaded`, when given, is what the sender's page showed: a role sent as it
 * was loaded is left as it is now (another admin may have changed it meanwhile), and a role changed here
 * that someone else changed meanwhile is refused rather than overwritten.
 */
export type RoleChange = { role_id: number; permissions: readonly string[]; loaded?: readonly string[] };

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((p) => b.includes(p));

/**
 * Saves the matrix: each role's new permission list, in one transaction, with
 * one role.update audit row per role that changed. Errors are keyed by
 * `role.{id}` (and "form" for the whole matrix).
 */
export function saveRoleMatrix(actor: ScopedActor, changes: readonly RoleChange[]): Result<{ changed: string[] }> {
  return transact((tx) => {
    const held = heldBy(tx, actor);
    const ids = permissionIds(tx);
    const adminsBefore = countFullAdmins(tx);
    const errors: FieldErrors = {};
    const changed: string[] = [];
    for (const change of changes) {
      const role = tx.select().from(roles).where(eq(roles.id, change.role_id)).get();
      if (!role) throw new FailureError(fail.notFound("Role not found."));
      const before = permissionsOfRole(role.id, tx);
      const after = ordered([...new Set(change.permissions)]);
      if (change.loaded && sameSet([...new Set(change.loaded)], after)) continue;
      if (change.loaded && !sameSet([...new Set(change.loaded)], before)) {
        errors[`role.${role.id}`] = [ROLE_MESSAGES.changedMeanwhile];
        continue;
      }
      const unknown = change.permissions.some((n) => !(PERMISSIONS as readonly string[]).includes(n));
      if (unknown) {
        errors[`role.${role.id}`] = [ROLE_MESSAGES.unknownPermission];
        continue;
      }
      if (sameSet(before, after)) continue;
      if (role.slug === LOCKED_ROLE) {
        errors[`role.${role.id}`] = [ROLE_MESSAGES.locked];
        continue;
      }
      const added = after.filter((p) => !before.includes(p));
      const problem = checkNames(added, held);
      if (problem) {
        errors[`role.${role.id}`] = [problem];
        continue;
      }
      writePermissions(tx, role.id, after, ids);
      audit(tx, actor, {
        action: "role.update",
        entityType: "role",
        entityId: role.slug,
        changes: {
          permissions: { before, after },
          ...(added.length ? { added: { before: null, after: added } } : {}),
          ...(before.some((p) => !after.includes(p))
            ? { removed: { before: before.filter((p) => !after.includes(p)), after: null } }
            : {}),
        },
      });
      changed.push(role.title);
    }
    if (Object.keys(errors).length) throw new FailureError(fail.invalid(errors));
    if (adminsBefore > 0 && countFullAdmins(tx) === 0) {
      throw new FailureError(fail.invalid({ form: [ROLE_MESSAGES.lastFull] }));
    }
    return { ok: true as const, changed };
  });
}

const slugify = (title: string) =>
  title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50) || "role";

/** A new role with a title (unique, any letter case) and the permissions ticked, all held by the actor. */
export function createRole(
  actor: ScopedActor,
  input: { title: string; permissions: readonly string[] },
): Result<{ role: { id: number; slug: string; title: string } }> {
  return transact((tx) => {
    const errors: FieldErrors = {};
    const taken = tx
      .select({ id: roles.id })
      .from(roles)
      .where(sql`lower(${roles.title}) = ${input.title.toLowerCase()}`)
      .get();
    if (taken) errors.title = [ROLE_MESSAGES.titleTaken];
    const names = ordered([...new Set(input.permissions)]);
    const problem = checkNames(input.permissions, heldBy(tx, actor));
    if (problem) errors.permissions = [problem];
    if (Object.keys(errors).length) throw new FailureError(fail.invalid(errors));
    let slug = slugify(input.title);
    for (let n = 2; tx.select({ id: roles.id }).from(roles).where(eq(roles.slug, slug)).get(); n++) {
      slug = `${slugify(input.title)}-${n}`;
    }
    const role = tx
      .insert(roles)
      .values({ slug, title: input.title })
      .returning({ id: roles.id, slug: roles.slug, title: roles.title })
      .get();
    writePermissions(tx, role.id, names, permissionIds(tx));
    audit(tx, actor, {
      action: "role.create",
      entityType: "role",
      entityId: role.slug,
      changes: { title: { before: null, after: role.title }, permissions: { before: null, after: names } },
    });
    return { ok: true as const, role };
  });
}
