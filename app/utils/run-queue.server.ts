/**
 * This process's run queue: the work that waits for the event loop, in lines of priority, run a slice of the
 * loop at a time so that between two slices the loop reads its sockets (new requests, and the refusals of
 * admission control, app/http/admission.server.ts, answered as they are read).
 *
 * The lines:
 * - "resume": requests already under way going on, after their shared commit (transactTogether), and the
 *   renders of pages (queueImmediates);
 * - "drawn": requests going on once their draw is made (draw-settle.server.ts), after "resume": a beacon round
 *   lets a process's draws of three seconds go at once, and behind them in one line every page's render and
 *   every write's caller waited for the whole round (at twice the rate held, the worst admitted step's p99
 *   went from 1,116 to 449 ms with the draws in a line of their own);
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
 * `standing()`: the "new" line, the one admission control refuses from, has started only late ones (each past
 * the target) for WINDOW_MS, and some still wait (CoDel's rule, for a server's queue): the arrivals outrun the
 * process. A burst drains within the window and its shortest wait is short. The line's
 * own waits, not every line's: staff and journeys start at once while new visitors wait behind them. Once it
 * stood, it stands until a start is within the target again, and within RECENT_MS of that, its first late
 * start makes it stand again (as CoDel re-enters its dropping state): each window of a surge that is not yet
 * refused lets in a window's excess, whose waits reach past the target. The "resume" line is read the same way,
 * with RESUME_TARGET_FACTOR times the target: while the requests already let in wait that long to go on (their
 * renders, their writes' answers), the process is behind on its own work, and new visitors are refused too.
 * So is the "drawn" line, with half a beacon round's period as its target where there are rounds: it goes
 * after the renders, and past capacity a round's draws waited there past the next round while nothing else stood.
 */
import { performance } from "node:perf_hooks";

export type Line = "resume" | "drawn" | "staff" | "journey" | "new";
const STARTS: readonly Line[] = ["staff", "journey", "new"];
const GOING_ON: readonly Line[] = ["resume", "drawn"];

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
const lines: Record<Line, Item[]> = { resume: [], drawn: [], staff: [], journey: [], new: [] };
let queued = 0;
let sliceFrom: number | null = null;
/**
 * A line's waits as CoDel reads them: its late starts since it was last empty or started one that waited at
 * most its target, the first of them, whether it stands now and when it last stopped.
 */
class Waits {
  firstLateAt = Infinity;
  lateSinceShort = 0;
  stands = false;
  stoodUntil = -Infinity;
  constructor(public targetMs = 0) {}

  reset(targetMs: number) {
    Object.assign(this, { targetMs, firstLateAt: Infinity, lateSinceShort: 0, stands: false, stoodUntil: -Infinity });
  }

  /** An item of the line started after `waited`; `emptied`: none waits behind it. */
  started(now: number, waited: number, emptied: boolean) {
    if (waited <= this.targetMs || emptied) {
      this.lateSinceShort = 0;
      if (this.stands) {
        this.stands = false;
        this.stoodUntil = now;
      }
    } else if (this.lateSinceShort++ === 0) this.firstLateAt = now;
  }

  /** The line was empty until now. */
  emptyUntil() {
    this.lateSinceShort = 0;
  }

  /**
   * Whether it stands, the first of the line (if any) having come at `headAt`: its starts have all been late
   * for a window (counted from the first late start, not from the last short one: after one hold of the loop,
   * a second of a collection or of pages read back from disk, everything that waited through it starts late
   * at once, and drains in a moment).
   */
  standing(headAt: number | undefined): boolean {
    if (this.targetMs <= 0 || headAt === undefined) return false;
    if (this.stands) return true;
    const now = performance.now();
    const again = now - this.stoodUntil < RECENT_MS && this.lateSinceShort > 0;
    const stood = this.lateSinceShort >= LATE_STARTS && now - this.firstLateAt > WINDOW_MS;
    this.stands = again || stood || now - headAt > STARVED_MS;
    return this.stands;
  }
}

/** The "new" line's waits, and those of the lines of what goes on (RESUME_TARGET_FACTOR times the target). */
const waits = { new: new Waits(), resume: new Waits(), drawn: new Waits() };
export type MeasuredLine = keyof typeof waits;
const MEASURED: readonly MeasuredLine[] = ["new", "resume", "drawn"];
const measured = (line: Line): line is MeasuredLine => line in waits;
/** The target of the lines of what goes on, against the "new" line's: a shared commit's callers, a round's draws go on together. */
const RESUME_TARGET_FACTOR = 2.5;
/** Whether a request going on has the next turn when starts wait too. */
let resumeTurn = true;
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
  const goingOn = GOING_ON.find((l) => lines[l].length > 0);
  const line = goingOn && (resumeTurn || !start) ? goingOn : start;
  if (!line) return;
  resumeTurn = line !== goingOn;
  const item = lines[line].shift()!;
  queued--;
  const waited = now - item.at;
  if (STARTS.includes(line) && waited > startWaitMaxMs) startWaitMaxMs = Math.round(waited);
  if (measured(line)) waits[line].started(now, waited, lines[line].length === 0);
  try {
    item.run();
  } catch (error) {
    console.error(error); // the queue goes on
  }
}

/** Runs `run` in its line's turn. */
export function later(line: Line, run: () => void): void {
  if (measured(line) && lines[line].length === 0) waits[line].emptyUntil();
  lines[line].push({ run, at: performance.now() });
  queued++;
  immediate(runNext);
}

/** Resolves in the "drawn" line's turn: where a request goes on once its draw is made. */
export const drawnInTurn = (): Promise<void> => new Promise((resolve) => later("drawn", resolve));

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

/**
 * The wait of the "new" line past which it stands (`standing`), `ms` (0: no line ever stands); the "resume"
 * line's is RESUME_TARGET_FACTOR times it, and so is the "drawn" line's, or half of `roundMs` where draws wait
 * for a beacon's rounds of that period: a round lets a period's draws go on at once, and they drain for a
 * while at rates the process keeps up with (each draw waited its round, and the first to have come are drawn
 * first, so only a drain near the period makes anyone wait longer). Admission control sets them.
 */
export function setStandingTarget(ms: number, { roundMs = 0 } = {}): void {
  waits.new.reset(ms);
  waits.resume.reset(ms * RESUME_TARGET_FACTOR);
  waits.drawn.reset(ms > 0 ? Math.max(ms * RESUME_TARGET_FACTOR, roundMs / 2) : 0);
}

/**
 * Whether the "new" line stands: no start within the target over the last window but LATE_STARTS late ones at
 * least (or its first has waited STARVED_MS: the lines above leave it no turn), and some still wait; or the
 * "resume" or the "drawn" line does, by its own target. One long hold of the loop (a big write, a collection) delays the
 * requests that came before it, and only them.
 */
export function standing(): boolean {
  return standingLine() !== null;
}

/** The line that stands now (`standing`): the "new" line, else the "resume", else the "drawn" one; null if none does. */
export function standingLine(): MeasuredLine | null {
  return MEASURED.find((line) => waits[line].standing(lines[line][0]?.at)) ?? null;
}

/** Items waiting now, and the longest a start (not a resume) waited since the last look with `reset`, in ms. */
export function runQueueFigures({ reset = false } = {}): { queued: number; startWaitMaxMs: number } {
  const out = { queued, startWaitMaxMs };
  if (reset) startWaitMaxMs = 0;
  return out;
}
