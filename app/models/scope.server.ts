/**
 * Branch scope: a user with no branch is head office and sees every branch; a
 * branch user sees only its own. Every query of branch-owned data takes a Scope
 * and puts `branchCondition` inside its WHERE clause.
 */
import { eq, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Actor } from "./audit.server";

export type Scope = { branchId: number | null };

export const HEAD_OFFICE: Scope = { branchId: null };

export function scopeOf(user: { branch_id: number | null }): Scope {
  return { branchId: user.branch_id ?? null };
}

export function branchCondition(column: SQLiteColumn, scope: Scope): SQL | undefined {
  return scope.branchId === null ? undefined : eq(column, scope.branchId);
}

export const isHeadOffice = (scope: Scope) => scope.branchId === null;

/** Who is asking, as a model's write sees them: the audit's actor with their branch scope. */
export type ScopedActor = Actor & { scope: Scope };

/** Head office acting as the system (seed, maintenance scripts). */
export const SYSTEM_ACTOR: ScopedActor = { id: null, email: "system", address: null, scope: HEAD_OFFICE };
