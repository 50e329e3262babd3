// A server process of the multi-process pre-registration test: its own SQLite connection to
// the shared database file, the pre-registration model loaded through tsx, then the public
// creates it is given, all started at the parent's signal and all at once (as concurrent requests
// to one server, so their writes share commits), as two busy server processes would.
import { tsImport } from "tsx/esm/api";

const dbModule = await tsImport("../../db/index.ts", import.meta.url);
const model = await tsImport("../../app/models/preregistration.server.ts", import.meta.url);
const { publicPreregistrationSchema } = await tsImport("../../app/schemas/preregistration.ts", import.meta.url);
// Open this process's connection before the start line.
const connection = dbModule.getDb();

process.on("message", async (msg) => {
  if (msg.type !== "go") return;
  const results = [];
  const errors = [];
  await Promise.all(
    msg.jobs.map(async (job) => {
      try {
        const value = publicPreregistrationSchema.parse(job.fields);
        const r = await model.createPreregistration({ channel: "public", address: job.address }, value);
        results.push(
          r.ok
            ? { key: job.key, ok: true, slug: r.preregistration.slug, duplicate: r.duplicate }
            : { key: job.key, ok: false, code: r.code },
        );
      } catch (err) {
        errors.push({ key: job.key, message: String(err && err.message ? err.message : err) });
      }
    }),
  );
  connection.$client.close();
  process.send({ type: "done", results, errors });
});
process.send({ type: "ready" });
