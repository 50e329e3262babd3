// Production entry (`npm start`, `npm run serve`, the systemd unit): WEB_CONCURRENCY server processes (server.js) sharing one
// port through node:cluster, so every core serves. Default: the machine's cores when NODE_ENV is production, 1
// otherwise. This primary serves nothing itself: it forks the workers, starts again one that dies (after a pause
// when it died young, so a broken start cannot spin), passes SIGTERM/SIGINT on for each worker's graceful shutdown
// and exits once they have, tells a worker who its siblings are (GET /healthz), and passes a worker's
// listening socket back to it as another descriptor (app/http/listeners.server.ts). Each worker gets its own SMS
// worker slot (SMS_WORKER_ID/index, kept across its restarts so a new worker takes over its predecessor's claims);
// everything else that must hold across processes (rate limits, draws, sessions, caches' versions) is in the
// database, as with one process.
import cluster from "node:cluster";
import os from "node:os";

process.env.NODE_ENV ??= "production";
process.umask(0o077);

const raw = process.env.WEB_CONCURRENCY?.trim();
const count = raw ? Number(raw) : process.env.NODE_ENV === "production" ? os.availableParallelism() : 1;
if (!Number.isSafeInteger(count) || count < 1 || count > 64) {
  console.error(`WEB_CONCURRENCY must be a whole number from 1 to 64 (it is "${raw}").`);
  process.exit(1);
}

const slotBase = process.env.SMS_WORKER_ID || `${os.hostname()}:${process.env.PORT ?? 3000}`;
const graceMs = Number(process.env.SHUTDOWN_GRACE_MS ?? 25_000);
/** A worker that dies within this long of its start waits before the next start, doubling up to 30 s. */
const YOUNG_MS = 5_000;

/** index → { worker, startedAt, restarts, listening, quickDeaths } */
const slots = new Map();
let stopping = false;

// The workers take connections from the shared socket themselves (the operating system's choice), unless
// NODE_CLUSTER_SCHED_POLICY says otherwise. With node's default round robin the primary accepts each connection
// and hands it to one worker at a time, each hand-over waiting for that worker's next turn of its event loop:
// in a rush, when nginx opens connections by the hundred and the workers' loops are busy, new connections
// queued in the primary for seconds while the workers had CPU to spare (docs/decisions/0020-admission-control.md).
if (!process.env.NODE_CLUSTER_SCHED_POLICY) cluster.schedulingPolicy = cluster.SCHED_NONE;
cluster.setupPrimary({ exec: new URL("./server.js", import.meta.url).pathname });

function start(index) {
  const previous = slots.get(index);
  const worker = cluster.fork({ WORKER_INDEX: String(index), SMS_WORKER_ID: `${slotBase}/${index}` });
  const slot = {
    worker,
    startedAt: Date.now(),
    restarts: previous ? previous.restarts + 1 : 0,
    quickDeaths: previous?.quickDeaths ?? 0,
    listening: false,
  };
  slots.set(index, slot);
  worker.on("listening", () => {
    slot.listening = true;
    startTheOthers();
  });
  worker.on("message", (message, handle) => {
    if (message?.type === "cluster-workers?") worker.send({ type: "cluster-workers", id: message.id, workers: list() });
    // A worker's listening socket, passed back: another descriptor of it, one more connection a turn
    // (app/http/listeners.server.ts). This process keeps no copy.
    if (message?.type === "listen-copy" && handle) worker.send({ type: "listen-copy" }, handle, () => handle.close());
  });
  worker.on("exit", (code, signal) => {
    slot.listening = false;
    if (stopping) return;
    slot.quickDeaths = Date.now() - slot.startedAt < YOUNG_MS ? slot.quickDeaths + 1 : 0;
    const wait = slot.quickDeaths ? Math.min(30_000, 500 * 2 ** slot.quickDeaths) : 0;
    console.error(
      `Worker ${index} (pid ${worker.process.pid}) stopped (${signal ?? `exit ${code}`}); starting it again` +
        (wait ? ` in ${wait / 1000} s` : ""),
    );
    setTimeout(() => stopping || start(index), wait);
  });
}

/** The workers as GET /healthz shows them. */
function list() {
  return [...slots.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, s]) => ({
      index,
      pid: s.worker.process.pid,
      slot: `${slotBase}/${index}`,
      startedAt: new Date(s.startedAt).toISOString(),
      restarts: s.restarts,
      listening: s.listening,
    }));
}

async function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping ${slots.size} worker(s) gracefully`);
  setTimeout(() => {
    console.error(`Stopped after ${graceMs + 5_000} ms with workers still running`);
    process.exit(1);
  }, graceMs + 5_000).unref();
  const exits = [...slots.values()].map(
    ({ worker }) =>
      new Promise((resolve) => {
        if (worker.isDead()) return resolve(worker.process.exitCode ?? 0);
        worker.once("exit", (code) => resolve(code ?? 0));
        worker.process.kill(signal);
      }),
  );
  const codes = await Promise.all(exits);
  process.exit(codes.every((c) => c === 0) ? 0 : 1);
}

/**
 * The first worker starts alone: it applies any new migration before it listens, so the others, started once it
 * listens, find the database up to date instead of racing for the same migration.
 */
let othersStarted = false;
function startTheOthers() {
  if (othersStarted || stopping) return;
  othersStarted = true;
  for (let index = 1; index < count; index++) start(index);
}

process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
console.log(`Starting ${count} server worker(s)`);
start(0);
