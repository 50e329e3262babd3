/**
 * The integrity recompute as a process of its own (decision 21): the server starts it, so the
 * recompute's long reads never hold a server's event loop. It takes the lease, recomputes and
 * prints the result as one JSON line (`null` when another process holds the lease).
 */
import { runIntegrityJob } from "~/models/integrity-job.server";

try {
  process.stdout.write(`${JSON.stringify(runIntegrityJob())}\n`);
} catch (e) {
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exitCode = 1;
}
