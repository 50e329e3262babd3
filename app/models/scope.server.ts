/**
 * Branch scope: a user with no branch is head office and sees every branch; a
 * branch user sees only its own. Every query of branch-owned data takes a Scope
 * and puts `branchCondition` inside its WHERE clause.
 */
import { eq, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Actor } from "./audit.server";

/** Head office (no branch: every branch), or one branch. */
export type Scope = { branchId: null } | { branchId: number };

export const HEAD_OFFICE: Scope = { branchId: null };

export function scopeOf(user: { branch_id: number | null }): Scope {
  return { branchId: user.branch_id ?? null };
}

/** The one head-office rule: a scope without a branch reaches every branch. */
export const isHeadOffice = (scope: Scope): scope is { branchId: null } => scope.branchId === null;

export function branchCondition(column: SQLiteColumn, scope: Scope): SQL | undefined {
  return isHeadOffice(scope) ? undefined : eq(column, scope.branchId);
}

/** Who is asking, as a model's write sees them: the audit's actor with their branch scope. */
export type ScopedActor = Actor & { scope: Scope };

/** Head office acting as the system (seed, maintenance scripts). */
export const SYSTEM_ACTOR: ScopedActor = { id: null, email: "system", address: null, scope: HEAD_OFFICE };
