/**
 * Phase two of a draw (docs/decisions/0019-fair-draws.md): the entries fixed in draw_queue are
 * drawn in the order they were fixed, each once the beacon round it names has come (or the house
 * seed stood in). A process draws in batches: the waiting entries up to the newest whose round it
 * holds, in one write transaction taken by timer (transactTogether), so the event loop never waits
 * on another process's lock; rounds are fetched once per round and shared (beacon.server.ts), and
 * an entry left by a process that stopped is drawn by the next batch of any process.
 */
import { asc, desc, lte, sql } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import { prepared } from "@db/prepared";
import { material, UNREACHABLE, type Material } from "~/models/beacon.server";
import { transactTogether } from "~/models/transaction.server";
import { drawnInTurn } from "~/utils/run-queue.server";

const { drawQueue } = schema;

type Queued = typeof drawQueue.$inferSelect;
type Resolver = (tx: Executor, row: Queued, m: Material) => unknown;

const queuedUpTo = prepared((q) =>
  q
    .select()
    .from(drawQueue)
    .where(lte(drawQueue.entry_seq, sql.placeholder("upTo")))
    .orderBy(asc(drawQueue.entry_seq))
    .limit(sql.placeholder("limit"))
    .prepare(),
);

const noBeacon = (round: number | null): Material => ({ source: "house", round: round ?? 0, reason: UNREACHABLE });

/** The randomness of every round the rows wait on (each fetched once, shared). */
async function materials(rows: Queued[]): Promise<Map<number, Material>> {
  const rounds = [...new Set(rows.map((r) => r.beacon_round).filter((r): r is number => r !== null))];
  const got = await Promise.all(rounds.map((r) => material(r)));
  return new Map(rounds.map((r, i) => [r, got[i]]));
}

let target = 0;
let running: Promise<void> | null = null;

/** Entries drawn in one write transaction at most: a round's many draws leave the lock to other writes between. */
const ROWS_PER_TRANSACTION = 16;

async function batch(resolve: Resolver): Promise<void> {
  while (target > 0) {
    const upTo = target;
    const mats = await materials(queuedUpTo(db).all({ upTo, limit: -1 }));
    for (;;) {
      // Read again under the write lock: another process may have drawn some meanwhile.
      const drawn = await transactTogether(
        (tx) => {
          const rows = queuedUpTo(tx).all({ upTo, limit: ROWS_PER_TRANSACTION });
          for (const row of rows) {
            resolve(
              tx,
              row,
              row.beacon_round === null ? noBeacon(null) : (mats.get(row.beacon_round) ?? noBeacon(row.beacon_round)),
            );
          }
          return rows.length;
        },
        { atOnce: true },
      );
      if (typeof drawn !== "number") throw new Error(drawn.message);
      if (drawn < ROWS_PER_TRANSACTION) break;
    }
    if (target === upTo) target = 0;
  }
}

let waiting = 0;

/** Requests of this process waiting for their draw now (drawThrough without `background`). */
export const requestsWaitingForDraw = (): number => waiting;

/**
 * Resolves when `row` is drawn: waits for its round (no CPU: a timer and one shared fetch), then
 * joins this process's next batch, which draws every entry fixed up to it in order, then goes on in the
 * run queue's "drawn" line (utils/run-queue.server.ts): a round decides many draws at once, and each
 * request then renders its answer; let go together, they held the loop for all their renders in one
 * piece, and every other request (a new landing, a counter) waited behind them; in the line of what goes
 * on, every page's render waited for the whole round. A request's wait
 * is counted while it lasts: it is in flight but costs this process no CPU but its share of the batch,
 * so admission control leaves it out of its bound (app/http/admission.server.ts); a draw nobody waits
 * for (`background`) is not counted.
 */
export async function drawThrough(row: Queued, resolve: Resolver, { background = false } = {}): Promise<void> {
  if (background) return settle(row, resolve);
  waiting++;
  try {
    await settle(row, resolve);
    await drawnInTurn();
  } finally {
    waiting--;
  }
}

async function settle(row: Queued, resolve: Resolver): Promise<void> {
  if (row.beacon_round !== null) await material(row.beacon_round);
  target = Math.max(target, row.entry_seq);
  while (running) await running.catch(() => undefined);
  if (target === 0) return;
  running = batch(resolve).finally(() => {
    running = null;
  });
  await running;
}

const newestWaiting = prepared((q) =>
  q
    .select()
    .from(drawQueue)
    .where(lte(drawQueue.time, sql.placeholder("before")))
    .orderBy(desc(drawQueue.entry_seq))
    .limit(1)
    .prepare(),
);

/**
 * Draws the entries fixed more than `olderThanMs` ago that nobody is waiting for (a process that
 * stopped between the two phases): the background sweep of every server process.
 */
export async function drawLeftBehind(resolve: Resolver, at: Date, olderThanMs = 10_000): Promise<void> {
  const row = newestWaiting(db).get({ before: new Date(at.getTime() - olderThanMs).toISOString() });
  if (row) await drawThrough(row, resolve, { background: true });
}
