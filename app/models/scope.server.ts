/**
 * Branch scope: a user with no branch is head office and sees every branch; a
 * branch user sees only its own. Every query of branch-owned data takes a Scope
 * and puts `branchCondition` inside its WHERE clause.
 */
import { eq, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

export type Scope = { branchId: number | null };

export const HEAD_OFFICE: Scope = { branchId: null };

export function scopeOf(user: { branch_id: number | null }): Scope {
  return { branchId: user.branch_id ?? null };
}

export function branchCondition(column: SQLiteColumn, scope: Scope): SQL | undefined {
  return scope.branchId === null ? undefined : eq(column, scope.branchId);
}

export const isHeadOffice = (scope: Scope) => scope.branchId === null;
