import { queuedSmsCount } from "~/models/health.server";
import { recentEventLoopDelay } from "~/utils/event-loop.server";

/**
 * GET /healthz for the load balancer and the operator: 200 when the database
 * answers, with the event-loop delay of the last minute (p99 and max, ms) and
 * the number of SMS waiting to go. Nothing personal; never cached.
 */
export async function loader() {
  let database = "ok";
  let smsQueued: number | null = null;
  try {
    smsQueued = queuedSmsCount();
  } catch {
    database = "unavailable";
  }
  const loop = recentEventLoopDelay();
  return Response.json(
    {
      status: database === "ok" ? "ok" : "degraded",
      database,
      eventLoopDelayMs: loop ? { p99: loop.p99, max: loop.max, since: loop.since } : null,
      smsQueued,
      uptimeSeconds: Math.round(process.uptime()),
    },
    { status: database === "ok" ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
