/**
 * Big JSON bodies parsed off the event loop: a worker thread decodes and parses the bytes and sends
 * the value back. Receiving a value costs this thread its copy, about what parsing it would; so a
 * long list in the object (a broadcast's 100,000 typed numbers) comes back in slices, one message
 * each, with the event loop free between them (about 45 ms held at once before, cold). One worker per process, started at the first big body
 * and never holding the process open; it parses one body at a time. A worker that stops (or cannot
 * start) fails the bodies in flight with `null`, and the caller parses them in place.
 */
import { Worker } from "node:worker_threads";

/** Items of a list sent back per message (a few milliseconds of this thread's time to receive). */
const SLICE_ITEMS = 5000;

/**
 * What the worker runs: plain CommonJS, so it needs no build of its own. A reply is the value with its
 * long top-level lists left empty and how many slices follow; each slice is sent when asked for, so
 * each arrives in a turn of this thread's event loop of its own (messages already waiting are all
 * received in one turn).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const decoder = new TextDecoder("utf-8", { fatal: true });
const size = workerData.sliceItems;
const pending = new Map();
parentPort.on("message", ({ id, bytes, more }) => {
  if (more) {
    const slices = pending.get(id);
    const next = slices && slices.shift();
    if (!slices || !slices.length) pending.delete(id);
    if (next) parentPort.postMessage({ id, key: next[0], items: next[1] });
    return;
  }
  let value;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch {
    return parentPort.postMessage({ id, ok: false });
  }
  const slices = [];
  let head = value;
  if (value && typeof value === "object" && !Array.isArray(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (!Array.isArray(item) || item.length <= size) continue;
      if (head === value) head = { ...value };
      head[key] = [];
      for (let at = 0; at < item.length; at += size) slices.push([key, item.slice(at, at + size)]);
    }
  }
  if (slices.length) pending.set(id, slices);
  parentPort.postMessage({ id, ok: true, value: head, slices: slices.length });
});
`;

/** What a body read off the loop gives: its value, the JSON refused (`ok: false`), or null (the worker was lost). */
export type ParsedJson = { ok: true; value: unknown } | { ok: false } | null;

type Reply =
  | { id: number; ok: false }
  | { id: number; ok: true; value: unknown; slices: number }
  | { id: number; key: string; items: unknown[] };

type Waiting = { done: (parsed: ParsedJson) => void; value?: Record<string, unknown[]>; slices: number };

let parser: { worker: Worker; waiting: Map<number, Waiting> } | null = null;
let nextId = 0;

function worker() {
  if (parser) return parser;
  const started = {
    worker: new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { sliceItems: SLICE_ITEMS },
      // A body is at most a few megabytes: a small heap is plenty.
      resourceLimits: { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 64 },
    }),
    waiting: new Map<number, Waiting>(),
  };
  started.worker.unref();
  const finish = (id: number, parsed: ParsedJson) => {
    const job = started.waiting.get(id);
    started.waiting.delete(id);
    if (!started.waiting.size) started.worker.unref();
    job?.done(parsed);
  };
  started.worker.on("message", (reply: Reply) => {
    const job = started.waiting.get(reply.id);
    if (!job) return;
    if ("key" in reply) {
      for (const item of reply.items) job.value![reply.key].push(item);
      job.slices -= 1;
    } else if (!reply.ok) return finish(reply.id, { ok: false });
    else {
      job.value = reply.value as Record<string, unknown[]>;
      job.slices = reply.slices;
    }
    if (job.slices === 0) finish(reply.id, { ok: true, value: job.value });
    else started.worker.postMessage({ id: reply.id, more: true });
  });
  const lost = () => {
    if (parser === started) parser = null;
    for (const job of started.waiting.values()) job.done(null);
    started.waiting.clear();
  };
  started.worker.on("error", lost);
  started.worker.on("exit", lost);
  parser = started;
  return started;
}

/** Parses JSON `bytes` (UTF-8) on the worker (a copy of them is handed over). */
export function parseJsonOffThread(bytes: Uint8Array): Promise<ParsedJson> {
  return new Promise((resolve) => {
    let thread: ReturnType<typeof worker>;
    try {
      thread = worker();
    } catch {
      return resolve(null);
    }
    const id = ++nextId;
    thread.waiting.set(id, { done: resolve, slices: -1 });
    thread.worker.ref(); // a body in flight keeps the process up until it is parsed
    const copy = bytes.slice();
    thread.worker.postMessage({ id, bytes: copy }, [copy.buffer]);
  });
}
