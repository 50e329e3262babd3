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

// ---------------------------------------------------------------- group commit

type Job = { fn: (tx: Tx) => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void };
type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** At most this many writes share one commit. */
const MAX_BATCH = 64;
let queue: Job[] = [];
let scheduled = false;

/**
 * `transact` for the busiest public writes, with the commits of concurrent
 * requests shared: the writes queued in one turn of the event loop run one
 * after another in ONE immediate transaction, each inside a savepoint of its
 * own, and one COMMIT (one fsync) makes them all durable. Each caller's promise
 * settles only after that commit, so nothing is acknowledged before it is on
 * disk. A write that throws rolls back to its savepoint alone (a FailureError
 * comes back as its Failure, any other error is thrown to its caller); the
 * others are kept. Rules read inside the transaction (limits, idempotency,
 * pools) see the earlier writes of the batch, as they would see earlier
 * transactions, and other processes wait on SQLite's write lock as before.
 */
export function transactTogether<T>(fn: (tx: Tx) => T): Promise<T | Failure> {
  return new Promise<T | Failure>((resolve, reject) => {
    queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  });
}

function flush() {
  const jobs = queue.slice(0, MAX_BATCH);
  queue = queue.slice(MAX_BATCH);
  if (queue.length) setImmediate(flush);
  else scheduled = false;
  const outcomes: Outcome[] = [];
  try {
    db.transaction(
      (tx) => {
        outcomes.length = 0;
        for (const job of jobs) {
          try {
            outcomes.push({ ok: true, value: tx.transaction((inner) => job.fn(inner)) });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      },
      { behavior: "immediate" },
    );
  } catch (error) {
    // BEGIN or COMMIT failed: nothing of the batch is stored, and every caller hears it.
    for (const job of jobs) job.reject(error);
    return;
  }
  jobs.forEach((job, i) => {
    const outcome = outcomes[i];
    if (outcome.ok) job.resolve(outcome.value);
    else if (outcome.error instanceof FailureError) job.resolve(outcome.error.failure);
    else job.reject(outcome.error);
  });
}
