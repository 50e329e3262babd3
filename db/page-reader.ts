/**
 * Long reads off the event loop: a worker thread with a read-only connection of its own runs a
 * query built here (by drizzle, on this thread) and sends its rows back, so the pages of a
 * million-row download are read from disk while this thread serves requests and writes the
 * file. One worker per process, started at the first read and never holding the process open;
 * it reads one query at a time, the callers' pages taking turns.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { Column } from "drizzle-orm";
import { databasePath } from "./index";

/**
 * What the worker runs: plain CommonJS, so it needs no build of its own. Each job is a query: read
 * once (a single read), or read page after page (a download's pages): the worker reads the next page
 * as soon as it has sent one, up to `credit` pages ahead of what the caller has taken, moving its
 * cursor parameter to the last row's id column itself, so no round trip through the caller's thread
 * stands between two pages. Jobs take turns a page at a time; messages are read between pages.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma("busy_timeout = 5000");
db.pragma("cache_size = -" + workerData.cacheKiB);
const statements = new Map();
const jobs = new Map();
let scheduled = false;
function statementOf(sql) {
  let statement = statements.get(sql);
  if (!statement) {
    if (statements.size >= 100) statements.clear();
    statement = db.prepare(sql).raw(true);
    statements.set(sql, statement);
  }
  return statement;
}
function schedule() {
  if (scheduled) return;
  scheduled = true;
  setImmediate(step);
}
function step() {
  scheduled = false;
  for (const [id, job] of jobs) {
    if (job.credit <= 0) continue;
    jobs.delete(id);
    try {
      const rows = statementOf(job.sql).all(...job.params);
      const more = job.pages !== undefined && rows.length === job.pages.size;
      if (more) {
        job.params[job.pages.param] = rows[rows.length - 1][job.pages.column];
        job.credit--;
        jobs.set(id, job); // to the back: the other jobs go first
      }
      parentPort.postMessage({ id, rows, done: !more });
    } catch (error) {
      parentPort.postMessage({ id, error: error && error.message ? error.message : String(error) });
    }
    break;
  }
  for (const job of jobs.values()) if (job.credit > 0) return schedule();
}
parentPort.on("message", (message) => {
  if (message.more) {
    const job = jobs.get(message.id);
    if (job) job.credit += message.more;
  } else if (message.cancel) {
    jobs.delete(message.id);
  } else {
    jobs.set(message.id, { sql: message.sql, params: message.params, pages: message.pages, credit: message.pages ? message.pages.ahead : 1 });
  }
  schedule();
});
`;

/** Its page cache: it reads each page once, in index order, so a small one does (the OS caches the file). */
const READER_CACHE_KIB = 2048;

/** Pages a download's reader reads ahead of the pages taken (each about a megabyte). */
const PAGES_AHEAD = 2;

type Reply = { id: number; rows?: unknown[][]; done?: boolean; error?: string };

let reader: { worker: Worker; file: string; waiting: Map<number, (reply: Reply) => void> } | null = null;
let nextId = 0;

function worker() {
  const file = databasePath();
  if (reader && reader.file === file) return reader;
  void reader?.worker.terminate();
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const started = {
    worker: new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file, driver, cacheKiB: READER_CACHE_KIB },
      // A page at a time (about a megabyte): a small heap is plenty, and the server's memory stays flat.
      resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 64 },
    }),
    file,
    waiting: new Map<number, (reply: Reply) => void>(),
  };
  started.worker.unref();
  started.worker.on("message", (reply: Reply) => {
    const done = started.waiting.get(reply.id);
    if (reply.done !== false) started.waiting.delete(reply.id);
    done?.(reply);
  });
  const fail = (error: unknown) => {
    if (reader === started) reader = null;
    const message = error instanceof Error ? error.message : `the page reader stopped (${String(error)})`;
    for (const done of started.waiting.values()) done({ id: -1, error: message });
    started.waiting.clear();
  };
  started.worker.on("error", fail);
  started.worker.on("exit", (code) => fail(code));
  reader = started;
  return started;
}

/** A job's replies as they come, for the caller to take one at a time; the worker kept up while any is open. */
function job(sql: string, params: unknown[], pages?: { param: number; column: number; size: number; ahead: number }) {
  const { worker: thread, waiting } = worker();
  const id = ++nextId;
  const replies: Reply[] = [];
  let wake: (() => void) | null = null;
  waiting.set(id, (reply) => {
    replies.push(reply);
    wake?.();
  });
  thread.ref(); // a read in flight keeps the process up until it answers
  thread.postMessage({ id, sql, params, pages });
  const close = () => {
    waiting.delete(id);
    if (!waiting.size) thread.unref();
  };
  return {
    /** The next page of rows; null after the last. */
    async next(): Promise<unknown[][] | null> {
      while (!replies.length) {
        if (!waiting.has(id)) return null;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
      const reply = replies.shift()!;
      if (reply.error !== undefined) {
        close();
        throw new Error(reply.error);
      }
      if (reply.done !== false) close();
      else thread.postMessage({ id, more: 1 }); // one taken: one more may be read ahead
      return reply.rows!;
    },
    /** Stops a job that has not ended (a download cancelled): the worker drops it. */
    cancel() {
      if (!waiting.has(id)) return;
      thread.postMessage({ id, cancel: true });
      close();
    },
  };
}

/** The rows of `query` as arrays of driver values, in the order of its selection, read by the worker. */
export async function readRawRows(query: { toSQL(): { sql: string; params: unknown[] } }): Promise<unknown[][]> {
  const { sql, params } = query.toSQL();
  return (await job(sql, params).next()) ?? [];
}

/**
 * Turns a raw row of a flat selection of columns into the object drizzle's `.all()` gives: the
 * fields in the selection's order, each read by its column's driver mapping (null stays null).
 */
export function rowDecoder<Row>(selection: Record<string, Column>): (raw: unknown[]) => Row {
  const keys = Object.keys(selection);
  if (keys.includes("__proto__")) throw new Error("A selection's field cannot be named __proto__.");
  // One object literal of the selection's fields, made once per selection: every row has its shape
  // from the start, and each field its own call to its column's mapping. Building the row a key at a
  // time cost a tenth of a million-row download's time on this thread.
  const fields = keys.map(
    (key, i) => `${JSON.stringify(key)}: raw[${i}] === null ? null : c[${i}].mapFromDriverValue(raw[${i}])`,
  );
  const make = new Function("c", `return (raw) => ({ ${fields.join(", ")} });`) as (
    c: Column[],
  ) => (raw: unknown[]) => Row;
  return make(Object.values(selection));
}

/** The first page's cursor: no id is above it, and no other parameter of a page's query is it. */
const NO_CURSOR = Number.MAX_SAFE_INTEGER;

/**
 * A query's rows newest first in pages of `size`, read by the worker: `page(before)` is the query of
 * the rows with an id below `before` (ordered by id, descending, at most `size`); the selection holds
 * the id. The worker reads PAGES_AHEAD pages ahead of those taken, so the disk is read while the
 * caller uses this one, and stops when the caller does.
 */
export async function* newestFirstPages<Row extends { id: number }>(
  selection: Record<string, Column>,
  page: (before: number) => { toSQL(): { sql: string; params: unknown[] } },
  size: number,
): AsyncGenerator<Row[]> {
  const decode = rowDecoder<Row>(selection);
  const { sql, params } = page(NO_CURSOR).toSQL();
  const param = params.indexOf(NO_CURSOR);
  const column = Object.keys(selection).indexOf("id");
  if (param < 0 || params.lastIndexOf(NO_CURSOR) !== param || column < 0) {
    throw new Error("A page's query must hold its cursor once, and its selection the id.");
  }
  const pages = job(sql, params, { param, column, size, ahead: PAGES_AHEAD });
  try {
    for (let rows = await pages.next(); rows?.length; rows = await pages.next()) yield rows.map(decode);
  } finally {
    pages.cancel();
  }
}
