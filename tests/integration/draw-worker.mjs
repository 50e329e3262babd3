// Worker of the draw concurrency test, as a thread or as a forked process: its own
// SQLite connection to the shared database file, the draw module loaded through tsx,
// then the second thrill (or, with thrill 3, the third thrill of registrations) drawn
// for every id it is given, in the order given, with a short random pause between
// draws as between the requests of a real server (without it, SQLite's busy handler
// lets whichever thread holds the lock keep taking it).
import { parentPort, workerData } from "node:worker_threads";
import { tsImport } from "tsx/esm/api";

const asThread = parentPort !== null;
const { dbFile, ids, now, startSignal, thrill = 2 } = asThread ? workerData : JSON.parse(process.env.DRAW_WORKER_DATA);
const send = (msg, then) => (asThread ? (parentPort.postMessage(msg), then?.()) : process.send(msg, then));
process.env.DATABASE_URL = `file:${dbFile}`;

const dbModule = await tsImport("../../db/index.ts", import.meta.url);
const draw = await tsImport("../../app/models/prize-draw.server.ts", import.meta.url);
// Open this worker's connection (the module's shared one) before the start line.
const connection = dbModule.getDb();

// Wait until every worker is ready, then start together.
if (asThread) {
  const flag = new Int32Array(startSignal);
  send({ type: "ready" });
  Atomics.wait(flag, 0, 0);
} else {
  const go = new Promise((resolve) => process.on("message", (m) => m.type === "go" && resolve()));
  send({ type: "ready" });
  await go;
}

const results = [];
const errors = [];
const at = new Date(now);
const made = [];
for (const id of ids) {
  // Fixed now (a write transaction), drawn when its beacon round comes: the draws wait together.
  const drawn = (thrill === 3 ? draw.drawThirdThrill(id, { now: at }) : draw.drawSecondThrill(id, { now: at })).then(
    (r) =>
      results.push({
        id,
        amount: r.amount,
        outcome: r.outcome,
        allocation_id: r.allocation_id,
        draw_id: r.draw.id,
        created: r.created,
      }),
    (err) => errors.push({ id, message: String(err && err.message ? err.message : err) }),
  );
  made.push(drawn);
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 2));
}
await Promise.all(made);
connection.$client.close();
send({ type: "done", results, errors }, () => asThread || process.exit(0));
