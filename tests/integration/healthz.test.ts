// /healthz: 200 while the database answers, with the last minute's event-loop delay and the SMS queue.
import { describe, expect, it } from "vitest";
import { loader } from "~/routes/healthz";
import { startEventLoopMonitor } from "~/utils/event-loop.server";

describe("/healthz", () => {
  it("reports the database, the event-loop delay once the monitor runs, and the SMS queue", async () => {
    const before = await (await loader()).json();
    expect(before).toMatchObject({ status: "ok", database: "ok", eventLoopDelayMs: null });
    expect(typeof before.smsQueued).toBe("number");
    const stop = startEventLoopMonitor({ resolutionMs: 5 });
    try {
      await new Promise((r) => setTimeout(r, 50));
      const res = await loader();
      expect(res.status).toBe(200);
      expect(res.headers.get("Cache-Control")).toBe("no-store");
      const body = await res.json();
      expect(body.eventLoopDelayMs.p99).toBeGreaterThanOrEqual(0);
      expect(body.eventLoopDelayMs.max).toBeGreaterThanOrEqual(body.eventLoopDelayMs.p99);
    } finally {
      stop();
    }
  });
});
