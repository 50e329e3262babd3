/**
 * This process's event-loop delay (perf_hooks.monitorEventLoopDelay): how long
 * a ready callback waited because something held the loop. server.js starts
 * the monitor once; the benchmark reads it around an export (over IPC), and a
 * health endpoint can report it. Self-contained: no other module needed.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from "node:perf_hooks";

export type EventLoopDelay = {
  /** Milliseconds. */
  p50: number;
  p99: number;
  max: number;
  mean: number;
  /** How many delays were sampled, and since when (the start or the last reset). */
  samples: number;
  since: string;
};

let histogram: IntervalHistogram | null = null;
let since = Date.now();

/** Starts sampling (once per process; later calls share the one monitor). Returns a stop function. */
export function startEventLoopMonitor({ resolutionMs = 10 } = {}): () => void {
  if (!histogram) {
    histogram = monitorEventLoopDelay({ resolution: resolutionMs });
    histogram.enable();
    since = Date.now();
  }
  const mine = histogram;
  return () => {
    mine.disable();
    if (histogram === mine) histogram = null;
  };
}

const ms = (ns: number) => (Number.isFinite(ns) ? Math.round(ns / 10_000) / 100 : 0);

/** The figures since the start or the last reset (null when the monitor is not running); `reset` starts a new window. */
export function eventLoopDelay({ reset = false } = {}): EventLoopDelay | null {
  if (!histogram) return null;
  const h = histogram;
  const out: EventLoopDelay = {
    p50: h.count ? ms(h.percentile(50)) : 0,
    p99: h.count ? ms(h.percentile(99)) : 0,
    max: h.count ? ms(h.max) : 0,
    mean: h.count ? ms(h.mean) : 0,
    samples: h.count,
    since: new Date(since).toISOString(),
  };
  if (reset) {
    h.reset();
    since = Date.now();
  }
  return out;
}
