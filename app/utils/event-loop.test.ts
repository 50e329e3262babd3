import { afterEach, describe, expect, it } from "vitest";
import { eventLoopDelay, startEventLoopMonitor } from "./event-loop.server";

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
let stop: (() => void) | null = null;
afterEach(() => stop?.());

describe("event-loop monitor", () => {
  it("is null until started", () => {
    expect(eventLoopDelay()).toBeNull();
  });

  it("sees a loop held by synchronous work, and starts a new window on reset", async () => {
    stop = startEventLoopMonitor({ resolutionMs: 5 });
    await pause(30);
    const end = performance.now() + 80;
    while (performance.now() < end); // hold the loop for 80 ms
    await pause(30);
    const held = eventLoopDelay({ reset: true })!;
    expect(held.samples).toBeGreaterThan(0);
    expect(held.max).toBeGreaterThanOrEqual(50);
    const fresh = eventLoopDelay()!; // read right after the reset: an empty window
    expect(fresh.samples).toBe(0);
    expect(fresh.max).toBe(0);
  });
});
