/**
 * This process's run queue: the work that waits for the event loop, in lines of priority, run a slice of the
 * loop at a time so that between two slices the loop reads its sockets (new requests, and the refusals of
 * admission control, app/http/admission.server.ts, answered as they are read).
 *
 * The lines:
 * - "resume": requests already under way going on, after their shared commit (transactTogether) or their draw
 *   (draw-settle.server.ts);
 * - "staff", "journey", "new": the starts of the requests admission control let in, first to last.
 * The requests going on and the starts take turns, one for one while both wait: a beacon round's many draws
 * going on first held new visitors back for a third of a second every round, and the rounds' bursts looked
 * like a standing queue at rates the process kept up with; starts first would leave begun work waiting.
 *
 * `later(line, run)` queues `run` and schedules one run (setImmediate); each runs the first item of the line
 * whose turn it is. The starts of a turn run one after another in the loop's check phase, each followed by the
 * microtasks it set off (where a request's loader, its action after an await and its render mostly run), until
 * SLICE_MS have gone since the turn's first; the rest wait for the next turn. Let go together, a round's sixty
 * draws or a shared commit's sixty-four writers held the loop for all their renders in one piece, and every
 * request read after them, a refusal included, waited behind them.
 *
 * `standing()`: the "new" line, the one admission control refuses from, has had no start that waited at most
 * the target over the last WINDOW_MS, only late ones, and some still wait (CoDel's rule, for a server's queue):
 * the arrivals outrun the process. A burst drains within the window and its shortest wait is short. The line's
 * own waits, not every line's: staff and journeys start at once while new visitors wait behind them. Once it
 * stood, it stands until a start is within the target again, and within RECENT_MS of that, its first late
 * start makes it stand again (as CoDel re-enters its dropping state): each window of a surge that is not yet
 * refused lets in a window's excess, whose waits reach past the target.
 */
import { performance } from "node:perf_hooks";

export type Line = "resume" | "staff" | "journey" | "new";
const STARTS: readonly Line[] = ["staff", "journey", "new"];

/** The longest the queue runs its items in one turn of the event loop before it lets the loop read its sockets. */
export const SLICE_MS = 15;
/** The window over which the "new" line's shortest wait is taken, the late starts that make it stand, and the wait of its first that does alone. */
export const WINDOW_MS = 500;
const LATE_STARTS = 4;
const STARVED_MS = 1000;
export const RECENT_MS = 2000;

/** Node's setImmediate, kept: `queueImmediates` puts another in its place for a moment. */
const immediate = globalThis.setImmediate;

type Item = { run: () => void; at: number };
const lines: Record<Line, Item[]> = { resume: [], staff: [], journey: [], new: [] };
let queued = 0;
let sliceFrom: number | null = null;
/** The last time the "new" line was empty or started one that waited at most the target, and its starts since. */
let lastShortAt = performance.now();
let lateSinceShort = 0;
/** Whether it stands now, and when it last stopped. */
let stands = false;
let stoodUntil = -Infinity;
/** Whether a request going on has the next turn when starts wait too. */
let resumeTurn = true;
let targetMs = 0;
let startWaitMaxMs = 0;

function runNext() {
  const now = performance.now();
  if (sliceFrom === null) {
    // The turn's first: its slice begins, and ends before the next turn's (queued after this one).
    sliceFrom = now;
    immediate(() => (sliceFrom = null));
  }
  if (now - sliceFrom >= SLICE_MS) return void immediate(runNext);
  const start = STARTS.find((l) => lines[l].length > 0);
  const line = lines.resume.length > 0 && (resumeTurn || !start) ? "resume" : start;
  if (!line) return;
  resumeTurn = line !== "resume";
  const item = lines[line].shift()!;
  queued--;
  const waited = now - item.at;
  if (line !== "resume" && waited > startWaitMaxMs) startWaitMaxMs = Math.round(waited);
  if (line === "new") {
    if (waited <= targetMs || lines.new.length === 0) {
      lastShortAt = now;
      lateSinceShort = 0;
      if (stands) {
        stands = false;
        stoodUntil = now;
      }
    } else lateSinceShort++;
  }
  try {
    item.run();
  } catch (error) {
    console.error(error); // the queue goes on
  }
}

/** Runs `run` in its line's turn. */
export function later(line: Line, run: () => void): void {
  if (line === "new" && lines.new.length === 0) {
    lastShortAt = performance.now(); // empty until now
    lateSinceShort = 0;
  }
  lines[line].push({ run, at: performance.now() });
  queued++;
  immediate(runNext);
}

/** Resolves in the "resume" line's turn: where a request under way goes on after waiting for something shared. */
export const resumeInTurn = (): Promise<void> => new Promise((resolve) => later("resume", resolve));

/**
 * Runs `start` with the immediates it schedules put in the "resume" line instead. React's Node renderer
 * renders a page in an immediate of its own (its scheduleWork is setImmediate, called while
 * renderToPipeableStream starts: app/entry.server.tsx), outside the slice, so the pages a slice started all
 * rendered together in the next turn and every request read after them, a refusal included, waited for them;
 * in the line, a render counts in a slice as the rest of its request did. (Rendered whole where it is called,
 * renderToString, a page loses the loader data Remix streams into it.)
 */
export function queueImmediates<T>(start: () => T): T {
  const own = globalThis.setImmediate;
  globalThis.setImmediate = ((run: (...args: unknown[]) => void, ...args: unknown[]) =>
    later("resume", () => run(...args))) as unknown as typeof setImmediate;
  try {
    return start();
  } finally {
    globalThis.setImmediate = own;
  }
}

/** The wait of the "new" line past which it stands (`standing`); 0: it never stands. Admission control sets it. */
export function setStandingTarget(ms: number): void {
  targetMs = ms;
  lastShortAt = performance.now();
  lateSinceShort = 0;
  stands = false;
  stoodUntil = -Infinity;
}

/**
 * Whether the "new" line stands: no start within the target over the last window but LATE_STARTS late ones at
 * least (or its first has waited STARVED_MS: the lines above leave it no turn), and some still wait. One long
 * hold of the loop (a big write, a collection) delays the requests that came before it, and only them.
 */
export function standing(): boolean {
  if (targetMs <= 0 || lines.new.length === 0) return false;
  if (stands) return true;
  const now = performance.now();
  const again = now - stoodUntil < RECENT_MS && lateSinceShort > 0;
  const stood = now - lastShortAt > WINDOW_MS && lateSinceShort >= LATE_STARTS;
  stands = again || stood || now - lines.new[0].at > STARVED_MS;
  return stands;
}

/** Items waiting now, and the longest a start (not a resume) waited since the last look with `reset`, in ms. */
export function runQueueFigures({ reset = false } = {}): { queued: number; startWaitMaxMs: number } {
  const out = { queued, startWaitMaxMs };
  if (reset) startWaitMaxMs = 0;
  return out;
}
