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

/** What the worker runs: plain CommonJS, so it needs no build of its own. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma("busy_timeout = 5000");
db.pragma("cache_size = -" + workerData.cacheKiB);
const statements = new Map();
parentPort.on("message", ({ id, sql, params }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size >= 100) statements.clear();
      statement = db.prepare(sql).raw(true);
      statements.set(sql, statement);
    }
    parentPort.postMessage({ id, rows: statement.all(...params) });
  } catch (error) {
    parentPort.postMessage({ id, error: error && error.message ? error.message : String(error) });
  }
});
`;

/** Its page cache: it reads each page once, in index order, so a small one does (the OS caches the file). */
const READER_CACHE_KIB = 2048;

type Reply = { id: number; rows?: unknown[][]; error?: string };

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
    started.waiting.delete(reply.id);
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

/** The rows of `query` as arrays of driver values, in the order of its selection, read by the worker. */
export function readRawRows(query: { toSQL(): { sql: string; params: unknown[] } }): Promise<unknown[][]> {
  const { sql, params } = query.toSQL();
  const { worker: thread, waiting } = worker();
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    waiting.set(id, (reply) => (reply.error !== undefined ? reject(new Error(reply.error)) : resolve(reply.rows!)));
    thread.ref(); // a read in flight keeps the process up until it answers
    thread.postMessage({ id, sql, params });
  }).finally(() => {
    if (!waiting.size) thread.unref();
  }) as Promise<unknown[][]>;
}

/**
 * Turns a raw row of a flat selection of columns into the object drizzle's `.all()` gives: the
 * fields in the selection's order, each read by its column's driver mapping (null stays null).
 */
export function rowDecoder<Row>(selection: Record<string, Column>): (raw: unknown[]) => Row {
  const keys = Object.keys(selection);
  const columns = Object.values(selection);
  return (raw) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const value = raw[i];
      row[keys[i]] = value === null ? null : columns[i].mapFromDriverValue(value);
    }
    return row as Row;
  };
}

/**
 * A query's rows newest first in pages of `size`, read by the worker: `page(before)` is the query of
 * the rows with an id below `before` (ordered by id, descending, at most `size`). Each next page is
 * asked for as soon as the one before is here, so the disk is read while the caller uses this one.
 */
export async function* newestFirstPages<Row extends { id: number }>(
  selection: Record<string, Column>,
  page: (before: number) => { toSQL(): { sql: string; params: unknown[] } },
  size: number,
): AsyncGenerator<Row[]> {
  const decode = rowDecoder<Row>(selection);
  let next: Promise<unknown[][]> | null = readRawRows(page(Number.MAX_SAFE_INTEGER));
  try {
    while (next) {
      const rows: Row[] = (await next).map(decode);
      next = rows.length === size ? readRawRows(page(rows[rows.length - 1].id)) : null;
      if (rows.length) yield rows;
    }
  } finally {
    // Stopped half-way (a download cancelled): the page asked for ahead is answered to no one.
    next?.catch(() => undefined);
  }
}
