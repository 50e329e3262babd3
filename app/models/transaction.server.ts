/**
 * Writes that must not interleave run here: one synchronous IMMEDIATE
 * transaction (atomic across requests of this process and, through SQLite's
 * write lock, across processes). A `FailureError` thrown inside rolls the
 * transaction back and comes out as the returned Failure; any other error
 * rolls back and is thrown on.
 */
import { db, type DB, type Tx } from "@db/index";
import { FailureError, type Failure } from "~/utils/failure";
import { later } from "~/utils/run-queue.server";

export function transact<T>(fn: (tx: Tx) => T): T | Failure {
  try {
    return db.transaction(fn, { behavior: "immediate" });
  } catch (error) {
    if (error instanceof FailureError) return error.failure;
    throw error;
  }
}

// ---------------------------------------------------------------- group commit

type Job = {
  fn: (tx: Tx) => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  atOnce: boolean;
};
type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** At most this many writes share one commit, and a commit takes on no more once its writes have run this long. */
const MAX_BATCH = 64;
const BATCH_MS = 10;
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
 * transactions. The callers go on in the run queue's "resume" line
 * (utils/run-queue.server.ts), a slice of the event loop a turn: let go
 * together, sixty-four callers' answers held the loop in one piece. While another process holds the write lock, the batch waits
 * for it by timer (a try every LOCK_RETRY_MS), not in SQLite's busy handler,
 * which sleeps on the event loop: the process answers other requests
 * meanwhile, and writes that arrive join the batch. After LOCK_WAIT_MS of
 * that it waits in the busy handler as every other write does (busy_timeout),
 * so it fails as they do when the lock never comes.
 *
 * `atOnce`: the caller goes on right after the commit, not in the "resume" line: the draws' batch
 * (draw-settle.server.ts), whose going on only queues its next transaction while a round's requests wait
 * for all of them; in the line, each of its transactions waited behind every render past capacity.
 */
export function transactTogether<T>(fn: (tx: Tx) => T, { atOnce = false } = {}): Promise<T | Failure> {
  return new Promise<T | Failure>((resolve, reject) => {
    queue.push({ fn, resolve: resolve as (value: unknown) => void, reject, atOnce });
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  });
}

/** How often a waiting batch tries for the write lock another process holds. */
const LOCK_RETRY_MS = 1;
/** How long a batch waits by timer before it waits as every other write does (busy_timeout). */
const LOCK_WAIT_MS = 2000;
let waitingSince: number | null = null;

/**
 * The shared commits' figures since the last look with `reset` (GET /healthz): how many, the longest a
 * batch waited for another process's write lock and the longest one held it; `waitingMs`, how long the
 * batch waiting now has waited (0 when none waits): the database is this process's limit while it grows.
 */
type LockFigures = { commits: number; writes: number; waitedMaxMs: number; heldMaxMs: number };
let figures: LockFigures = { commits: 0, writes: 0, waitedMaxMs: 0, heldMaxMs: 0 };
export function sharedCommits({ reset = false } = {}): LockFigures & { waitingMs: number } {
  const out = { ...figures, waitingMs: waitingSince === null ? 0 : Math.round(performance.now() - waitingSince) };
  if (reset) figures = { commits: 0, writes: 0, waitedMaxMs: 0, heldMaxMs: 0 };
  return out;
}

/** The client's own statements for the batch's transaction, made once per connection. */
const statements = new WeakMap<object, ReturnType<typeof makeStatements>>();
function makeStatements(client: DB["$client"]) {
  return {
    begin: client.prepare("BEGIN IMMEDIATE"),
    commit: client.prepare("COMMIT"),
    rollback: client.prepare("ROLLBACK"),
    busyTimeout: client.pragma("busy_timeout", { simple: true }) as number,
  };
}

/** BEGIN IMMEDIATE without waiting: false when another connection holds the write lock. */
function beginNow(client: DB["$client"], s: ReturnType<typeof makeStatements>): boolean {
  client.pragma("busy_timeout = 0");
  try {
    s.begin.run();
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_BUSY") return false;
    throw error;
  } finally {
    client.pragma(`busy_timeout = ${s.busyTimeout}`);
  }
}

function flush() {
  const client = db.$client;
  let s = statements.get(client);
  if (!s) statements.set(client, (s = makeStatements(client)));
  try {
    if (waitingSince !== null && performance.now() - waitingSince >= LOCK_WAIT_MS) s.begin.run();
    else if (!beginNow(client, s)) {
      waitingSince ??= performance.now();
      setTimeout(flush, LOCK_RETRY_MS);
      return;
    }
  } catch (error) {
    // No lock within the busy timeout, or a broken database: nothing of the batch is stored, and every caller hears it.
    waitingSince = null;
    settleQueue((job) => job.reject(error));
    return;
  }
  const began = performance.now();
  if (waitingSince !== null) figures.waitedMaxMs = Math.max(figures.waitedMaxMs, Math.round(began - waitingSince));
  waitingSince = null;
  const jobs: Job[] = [];
  const outcomes: Outcome[] = [];
  try {
    // Inside the transaction begun above, each write is a savepoint of its own.
    while (queue.length > 0 && jobs.length < MAX_BATCH && performance.now() - began < BATCH_MS) {
      const job = queue.shift()!;
      jobs.push(job);
      try {
        outcomes.push({ ok: true, value: db.transaction((inner) => job.fn(inner)) });
      } catch (error) {
        outcomes.push({ ok: false, error });
      }
    }
    s.commit.run();
    figures.commits++;
    figures.writes += jobs.length;
    figures.heldMaxMs = Math.max(figures.heldMaxMs, Math.round((performance.now() - began) * 10) / 10);
  } catch (error) {
    // COMMIT failed: nothing of the batch is stored, and every caller hears it.
    if (client.inTransaction) s.rollback.run();
    for (const job of jobs) job.reject(error);
    return;
  } finally {
    if (queue.length) setImmediate(flush);
    else scheduled = false;
  }
  jobs.forEach((job, i) => {
    const outcome = outcomes[i];
    const settle = () => {
      if (outcome.ok) job.resolve(outcome.value);
      else if (outcome.error instanceof FailureError) job.resolve(outcome.error.failure);
      else job.reject(outcome.error);
    };
    if (job.atOnce) settle();
    else later("resume", settle);
  });
}

/** Every queued job settled by `settle` (a batch that could not begin). */
function settleQueue(settle: (job: Job) => void) {
  const jobs = queue;
  queue = [];
  scheduled = false;
  jobs.forEach(settle);
}
