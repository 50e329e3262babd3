/**
 * Writes that must not interleave run here: one synchronous IMMEDIATE
 * transaction (atomic across requests of this process and, through SQLite's
 * write lock, across processes). A `FailureError` thrown inside rolls the
 * transaction back and comes out as the returned Failure; any other error
 * rolls back and is thrown on.
 */
import { db, type Tx } from "@db/index";
import { FailureError, type Failure } from "./failure";

export function transact<T>(fn: (tx: Tx) => T): T | Failure {
  try {
    return db.transaction(fn, { behavior: "immediate" });
  } catch (error) {
    if (error instanceof FailureError) return error.failure;
    throw error;
  }
}
