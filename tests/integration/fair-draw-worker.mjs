// A server process of the fair-draws test: its own SQLite connection to the shared database
// file, the draw module loaded through tsx, then the second thrill drawn for every id it is
// given at the parent's signal, with a short random pause between draws as between requests
// (each draw fixed at once, then drawn when its beacon round comes: the draws wait together).
import { tsImport } from "tsx/esm/api";

const { getDb, drawSecondThrill, setClock, movingClock } = await tsImport(
  "./fair-draw-worker-modules.ts",
  import.meta.url,
);
const connection = getDb();

process.on("message", async (msg) => {
  if (msg.type !== "go") return;
  // The day of the test, at the real pace: each draw comes a round after its entry was fixed.
  if (msg.now) setClock(movingClock(msg.now));
  const errors = [];
  const made = [];
  for (const id of msg.ids) {
    made.push(
      drawSecondThrill(id).catch((err) => {
        errors.push({ id, message: String(err && err.message ? err.message : err) });
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 2));
  }
  await Promise.all(made);
  connection.$client.close();
  process.send({ type: "done", errors }, () => process.exit(0));
});
process.send({ type: "ready" });
