/**
 * This process's event-loop delay (perf_hooks.monitorEventLoopDelay): how long
 * a ready callback waited because something held the loop. server.js starts
 * the monitor once; the benchmark reads it around an export (over IPC), and a
 * health endpoint can report it. Self-contained: no other module needed.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from "node:perf_hooks";

const ms = (ns: number) => (Number.isFinite(ns) ? Math.round(ns / 10_000) / 100 : 0);

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

/** A second histogram for /healthz: the last full minute, kept apart from the benchmark's window. */
let minute: IntervalHistogram | null = null;
let lastMinute: EventLoopDelay | null = null;
const WINDOW_MS = 60_000;

/** Starts sampling (once per process; later calls share the one monitor). Returns a stop function. */
export function startEventLoopMonitor({ resolutionMs = 10 } = {}): () => void {
  if (!histogram) {
    histogram = monitorEventLoopDelay({ resolution: resolutionMs });
    histogram.enable();
    since = Date.now();
  }
  const mine = histogram;
  const perMinute = monitorEventLoopDelay({ resolution: resolutionMs });
  perMinute.enable();
  minute = perMinute;
  let started = Date.now();
  const rotate = setInterval(() => {
    lastMinute = figures(perMinute, started);
    perMinute.reset();
    started = Date.now();
  }, WINDOW_MS);
  rotate.unref();
  return () => {
    clearInterval(rotate);
    perMinute.disable();
    mine.disable();
    if (histogram === mine) histogram = null;
    if (minute === perMinute) minute = null;
  };
}

function figures(h: IntervalHistogram, from: number): EventLoopDelay {
  return {
    p50: h.count ? ms(h.percentile(50)) : 0,
    p99: h.count ? ms(h.percentile(99)) : 0,
    max: h.count ? ms(h.max) : 0,
    mean: h.count ? ms(h.mean) : 0,
    samples: h.count,
    since: new Date(from).toISOString(),
  };
}

/** The last full minute's figures (the current minute's until one has passed); null without the monitor. */
export function recentEventLoopDelay(): EventLoopDelay | null {
  if (!minute) return null;
  return lastMinute ?? figures(minute, since);
}

/** The figures since the start or the last reset (null when the monitor is not running); `reset` starts a new window. */
export function eventLoopDelay({ reset = false } = {}): EventLoopDelay | null {
  if (!histogram) return null;
  const h = histogram;
  const out = figures(h, since);
  if (reset) {
    h.reset();
    since = Date.now();
  }
  return out;
}
