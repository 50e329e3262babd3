/**
 * The run queue: requests under way going on take turns with the starts, staff, then journeys, then new
 * requests; a slice of the loop a turn; the line of new requests stands when none of them started in time over a
 * window, even while the lines above it start at once, and soon after it stood, at its first late start.
 */
import { createElement } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import {
  later,
  type Line,
  queueImmediates,
  RECENT_MS,
  runQueueFigures,
  setStandingTarget,
  SLICE_MS,
  standing,
  WINDOW_MS,
} from "./run-queue.server";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const spin = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};
/** A counter of the loop's turns: timers run once a turn. */
function turns() {
  let turn = 0;
  const timer = setInterval(() => turn++, 0);
  return { now: () => turn, stop: () => clearInterval(timer) };
}
/** Resolves once the queue is empty. */
async function drained() {
  while (runQueueFigures().queued > 0) await sleep(5);
}

/** What `standing()` said every 5 ms until the queue was empty. */
async function standingWhileDraining(): Promise<boolean[]> {
  const seen: boolean[] = [];
  while (runQueueFigures().queued > 0) {
    seen.push(standing());
    await sleep(5);
  }
  return seen;
}

afterEach(async () => {
  await drained();
  setStandingTarget(0);
});

describe("the run queue", () => {
  it("runs what goes on and the starts in turns, the starts staff, then journeys, then new, each line in the order it came", async () => {
    const ran: string[] = [];
    const queue = (line: Line, name: string) => later(line, () => ran.push(name));
    queue("new", "new-1");
    queue("journey", "journey-1");
    queue("staff", "staff-1");
    queue("resume", "resume-1");
    queue("new", "new-2");
    queue("resume", "resume-2");
    await drained();
    // Whichever had the last turn before, they alternate while both wait.
    expect([
      ["resume-1", "staff-1", "resume-2", "journey-1", "new-1", "new-2"],
      ["staff-1", "resume-1", "journey-1", "resume-2", "new-1", "new-2"],
    ]).toContainEqual(ran);
  });

  it("goes on with the requests under way before the draws a round let go, which still take turns with the starts", async () => {
    const ran: string[] = [];
    const queue = (line: Line, name: string) => later(line, () => ran.push(name));
    // A round's draws are let go together; a page's render and a write's caller come after them.
    for (let i = 1; i <= 3; i++) queue("drawn", `drawn-${i}`);
    queue("resume", "resume-1");
    queue("new", "new-1");
    queue("resume", "resume-2");
    queue("new", "new-2");
    await drained();
    expect([
      ["resume-1", "new-1", "resume-2", "new-2", "drawn-1", "drawn-2", "drawn-3"],
      ["new-1", "resume-1", "new-2", "resume-2", "drawn-1", "drawn-2", "drawn-3"],
    ]).toContainEqual(ran);
  });

  it("runs for one slice of the loop a turn, the microtasks each item sets off counted", async () => {
    const turn = turns();
    const ran: number[] = [];
    const spinMs = SLICE_MS / 2 + 1;
    for (let i = 0; i < 8; i++)
      later(
        "resume",
        () =>
          // The work after the item's await (a render): in the microtasks it sets off.
          void Promise.resolve().then(() => {
            ran.push(turn.now());
            spin(spinMs);
          }),
      );
    await drained();
    await sleep(10);
    turn.stop();
    expect(ran).toHaveLength(8);
    // Two fill a slice: eight take four turns or more, none three in one.
    const perTurn = new Map<number, number>();
    for (const t of ran) perTurn.set(t, (perTurn.get(t) ?? 0) + 1);
    expect(perTurn.size).toBeGreaterThanOrEqual(4);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(2);
  });

  it("puts React's render of a page in its turn: the renderer's immediate waits in the line of what goes on", async () => {
    let rendered = false;
    const Page = () => {
      rendered = true;
      return createElement("p", null, "a page");
    };
    let html = "";
    const done = new Promise<void>((resolve) => {
      const { pipe } = queueImmediates(() =>
        renderToPipeableStream(createElement(Page), {
          onAllReady() {
            const body = new PassThrough();
            body.on("data", (chunk: Buffer) => (html += chunk.toString()));
            body.on("end", () => resolve());
            pipe(body);
          },
        }),
      );
    });
    // Not rendered where it was started, nor in an immediate of its own: it waits in the run queue.
    expect(rendered).toBe(false);
    expect(runQueueFigures().queued).toBe(1);
    const before: string[] = [];
    later("resume", () => before.push(String(rendered)));
    // Node's own setImmediate is back once the render is started.
    await new Promise((resolve) => setImmediate(resolve));
    await done;
    expect(html).toContain("a page");
    expect(before).toEqual(["true"]); // it ran first, in its line's order
  });
});

describe("the line of new requests", () => {
  it("stands while journeys fill the loop and start at once, and no longer once it has drained", async () => {
    setStandingTarget(20);
    // Each turn three journeys and three new requests of 4 ms come: 24 ms of work for a 15 ms slice. The
    // journeys (12 ms) start in the turn they came; the new requests fall further behind every turn.
    let arriving = true;
    let journeyWaitMax = 0;
    const arrive = setInterval(() => {
      if (!arriving) return;
      for (let i = 0; i < 3; i++) {
        const at = performance.now();
        later("journey", () => {
          journeyWaitMax = Math.max(journeyWaitMax, performance.now() - at);
          spin(4);
        });
        later("new", () => spin(4));
      }
    }, 0);
    try {
      expect(standing()).toBe(false);
      await sleep(3 * WINDOW_MS);
      expect(standing()).toBe(true);
      expect(journeyWaitMax).toBeLessThan(20 * 3);
    } finally {
      arriving = false;
      clearInterval(arrive);
    }
    await drained();
    expect(standing()).toBe(false);
  });

  it("does not stand through a burst that drains within the window", async () => {
    setStandingTarget(20);
    // 120 ms of new requests at once: their last waits past the target, but the first started at once.
    for (let i = 0; i < 30; i++) later("new", () => spin(4));
    const seen = await standingWhileDraining();
    expect(seen.length).toBeGreaterThan(3);
    expect(seen.every((s) => !s)).toBe(true);
  });

  it("does not stand after one long hold of the loop: only the requests that came before it were late", async () => {
    setStandingTarget(20);
    for (let i = 0; i < 3; i++) later("new", () => spin(1));
    spin(WINDOW_MS + 100); // a big write, a collection
    for (let i = 0; i < 3; i++) later("new", () => spin(1));
    expect(standing()).toBe(false);
    await drained();
    expect(standing()).toBe(false);
  });

  it("does not stand after one long hold of the loop that many waited through: they drain at once", async () => {
    setStandingTarget(20);
    for (let i = 0; i < 20; i++) later("new", () => spin(1));
    spin(WINDOW_MS + 100); // a collection, pages read back from disk
    const seen = await standingWhileDraining();
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.every((s) => !s)).toBe(true);
  });

  it("stands again at its first late start soon after it stood, not a window later", async () => {
    setStandingTarget(20);
    // 600 ms of new requests at once: it stands, then drains.
    for (let i = 0; i < 150; i++) later("new", () => spin(4));
    let stood = false;
    while (runQueueFigures().queued > 0) {
      stood ||= standing();
      await sleep(5);
    }
    expect(stood).toBe(true);
    expect(standing()).toBe(false);
    // 80 ms of new requests: the later ones start past the target, well within a window.
    const seen = async () => {
      for (let i = 0; i < 20; i++) later("new", () => spin(4));
      let any = false;
      const look = setInterval(() => (any ||= standing()), 0);
      await drained();
      clearInterval(look);
      return any;
    };
    expect(await seen()).toBe(true);
    // Long after, the same is a burst again.
    await sleep(RECENT_MS + 50);
    expect(await seen()).toBe(false);
  });
});

describe("the line of what goes on", () => {
  it.each(["resume", "drawn"] as const)(
    "stands when the requests under way fall behind (%s), and new visitors are refused while it does",
    async (line) => {
      setStandingTarget(20); // its own target: 2.5 times the new line's, 50 ms
      // Each turn six continuations of 4 ms come: 24 ms of work for a 15 ms slice, no new request waiting.
      let arriving = true;
      const arrive = setInterval(() => {
        if (arriving) for (let i = 0; i < 6; i++) later(line, () => spin(4));
      }, 0);
      try {
        expect(standing()).toBe(false);
        await sleep(3 * WINDOW_MS);
        expect(standing()).toBe(true);
      } finally {
        arriving = false;
        clearInterval(arrive);
      }
      await drained();
      expect(standing()).toBe(false);
    },
  );

  it("drains a beacon round's draws for up to half its period without standing", async () => {
    // A round every second lets 150 draws of 4 ms go on at once: 600 ms of work, the last waiting that long.
    const round = async () => {
      for (let i = 0; i < 150; i++) later("drawn", () => spin(4));
      return (await standingWhileDraining()).some(Boolean);
    };
    setStandingTarget(20, { roundMs: 1000 }); // the drawn line's target: 500 ms
    expect(await round()).toBe(false);
    setStandingTarget(20); // no rounds: the resume line's target, 50 ms
    expect(await round()).toBe(true);
  });

  it("does not stand through a round's continuations that drain within the window", async () => {
    setStandingTarget(20);
    for (let i = 0; i < 60; i++) later("resume", () => spin(4));
    const seen = await standingWhileDraining();
    expect(seen.length).toBeGreaterThan(3);
    expect(seen.every((s) => !s)).toBe(true);
  });
});
