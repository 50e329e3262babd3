/**
 * WAL checkpoints off the event loop (docs/decisions/0018-request-cost.md). SQLite copies the
 * write-ahead log back into the database file in the connection whose commit passes 1,000 pages of
 * log: with better-sqlite3 that is a request's own write, which then holds the event loop while
 * scattered pages are written and the file is synced (tens to hundreds of milliseconds on a busy
 * disk). A server process instead gives its connection's checkpoints to a thread with a connection of
 * its own, which checkpoints (PASSIVE: never waits on readers or writers) every second and once more
 * when stopped. Should the thread stop on its own, the connection checkpoints for itself again.
 * Litestream, when it runs, keeps its read on the log, so no checkpoint passes what it has copied.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { db } from "@db/index";

/** SQLite's own threshold, given back to the connection when the thread stops. */
const AUTOCHECKPOINT_PAGES = 1000;

/** The thread: its own connection, a PASSIVE checkpoint every `everyMs`, each result posted back. */
const THREAD = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma("synchronous = FULL");
const checkpoint = () => {
  try {
    const [row] = db.pragma("wal_checkpoint(PASSIVE)");
    parentPort.postMessage({ busy: row.busy, log: row.log, checkpointed: row.checkpointed });
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on("message", (message) => {
  if (message !== "stop") return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

export type Checkpoint = { busy: number; log: number; checkpointed: number } | { error: string };

export type CheckpointOptions = {
  /** How often the thread checkpoints (ms). */
  everyMs?: number;
  /** Each checkpoint's result (tests, logs). */
  onCheckpoint?: (result: Checkpoint) => void;
};

/**
 * Starts checkpointing the database in a thread and turns the connection's own checkpoints off; returns
 * stop(), which lets the thread checkpoint once more and close, and gives the connection its
 * checkpoints back. An in-memory database has no log: nothing starts.
 */
export function startCheckpoints({ everyMs = 1000, onCheckpoint }: CheckpointOptions = {}): () => Promise<void> {
  const file = db.$client.name;
  if (db.$client.memory || !file) return async () => undefined;
  const worker = new Worker(THREAD, {
    eval: true,
    workerData: { file, everyMs, driver: createRequire(import.meta.url).resolve("better-sqlite3") },
  });
  worker.unref();
  const selfCheckpoint = () => {
    if (db.$client.open) db.$client.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  };
  worker.on("message", (result: Checkpoint) => {
    if ("error" in result) console.error(`[db] checkpoint failed: ${result.error}`);
    onCheckpoint?.(result);
  });
  worker.on("error", (error) => console.error("[db] the checkpoint thread stopped", error));
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  void exited.then(selfCheckpoint);
  db.$client.pragma("wal_autocheckpoint = 0");
  return async () => {
    worker.postMessage("stop");
    await exited;
  };
}
