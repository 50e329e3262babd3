// A server process of the fair-draws test: its own SQLite connection to the shared database
// file, the draw module loaded through tsx, then the second thrill drawn for every id it is
// given at the parent's signal, with a short random pause between draws as between requests.
import { tsImport } from "tsx/esm/api";

const dbModule = await tsImport("../../db/index.ts", import.meta.url);
const draw = await tsImport("../../app/models/prize-draw.server.ts", import.meta.url);
const connection = dbModule.getDb();

process.on("message", async (msg) => {
  if (msg.type !== "go") return;
  const errors = [];
  for (const id of msg.ids) {
    try {
      draw.drawSecondThrill(id, { now: new Date(msg.now) });
    } catch (err) {
      errors.push({ id, message: String(err && err.message ? err.message : err) });
    }
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 2));
  }
  connection.$client.close();
  process.send({ type: "done", errors }, () => process.exit(0));
});
process.send({ type: "ready" });
