import { codeSmsCeilings, queuedSmsCount } from "~/models/health.server";
import { beaconHealth } from "~/models/beacon-health.server";
import { admissionState } from "~/http/admission.server";
import { connectionTaking } from "~/http/listeners.server";
import { sharedCommits } from "~/models/transaction.server";
import { clusterWorkers, workerIndex } from "~/utils/cluster.server";
import { recentEventLoopDelay } from "~/utils/event-loop.server";

/**
 * GET /healthz for the load balancer and the operator: 200 when the database
 * answers, with the event-loop delay of the last minute (p99 and max, ms), the
 * number of SMS waiting to go, and the hour's code SMS against their two ceilings
 * (every sender's and the public forms'; an alert line naming each one near or reached); under cluster.js, the worker that answers and every worker
 * (index, pid, SMS slot, start, restarts, listening), requests against the admission bound, and the
 * shared commits' waits for the write lock. Nothing personal; never cached.
 */
export async function loader() {
  let database = "ok";
  let smsQueued: number | null = null;
  let ceilings: ReturnType<typeof codeSmsCeilings> | null = null;
  try {
    smsQueued = queuedSmsCount();
    ceilings = codeSmsCeilings();
  } catch {
    database = "unavailable";
  }
  const loop = recentEventLoopDelay();
  // The draws' beacon: down means draws use the house seed (marked on /fair-draws).
  const beacon = database === "ok" ? beaconHealth() : null;
  const index = workerIndex();
  return Response.json(
    {
      status: database === "ok" ? "ok" : "degraded",
      database,
      eventLoopDelayMs: loop ? { p99: loop.p99, max: loop.max, since: loop.since } : null,
      smsQueued,
      // The hour's code SMS against their ceilings (every sender's, and the public forms' share); each
      // alert names the ceiling an operator should look at.
      codeSms: ceilings?.codeSms ?? null,
      publicCodeSms: ceilings?.publicCodeSms ?? null,
      alerts: [...(ceilings?.alerts ?? []), ...(beacon?.alert ? [beacon.alert] : [])],
      beacon,
      // Requests in flight in this process against its bound, the most at once since the last look, refusals.
      admission: admissionState({ reset: true }),
      // The descriptors this process takes connections on, and the most it took in one turn of its loop since the last look.
      connections: connectionTaking({ reset: true }),
      // The shared commits since the last look: how many, the longest wait for another process's write lock
      // and the longest hold (the database is the limit when the waits grow).
      writes: sharedCommits({ reset: true }),
      uptimeSeconds: Math.round(process.uptime()),
      worker: index === null ? null : { index, pid: process.pid },
      workers: await clusterWorkers(),
    },
    { status: database === "ok" ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
