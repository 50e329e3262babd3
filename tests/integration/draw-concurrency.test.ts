/**
 * Many draws at once from several threads (the pre-registration pools) or
 * processes (the registration pools), each with its own SQLite connection to the
 * same file: pools never pay more than their count and every entry is drawn
 * exactly once.
 */
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { databasePath, db, schema } from "@db/index";
import { PRE_PRIZES, REGISTRATION_PRIZES } from "~/utils/prize-constants";
import { makeBranch, makePreregistration } from "../fixtures";
import { makeRegistration } from "../referral-fixtures";

// The threads open the database by its path: it lives in a folder of this
// file's own, made from the migrations on first use, and is removed afterwards.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "draw-concurrency-"));
process.env.DATABASE_URL = `file:${path.join(dir, "draws.sqlite")}`;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const WORKERS = 4;
const ENTRIES = 1200;
const POOLS = 150;
const DATE = "2026-11-21";
const NOW = "2026-11-21T06:00:00.000Z"; // 11:45 in Kathmandu, same day
// The purchase draws' day: a day's pools are fixed once its first draw commits its terms.
const THIRD_DATE = "2026-11-22";
const THIRD_NOW = "2026-11-22T06:00:00.000Z";

type WorkerResult = {
  id: number;
  amount: number;
  outcome: string;
  allocation_id: number | null;
  draw_id: number;
  created: boolean;
};
type WorkerReport = { results: WorkerResult[]; errors: { id: number; message: string }[] };

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed >>> 0;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function groupById(reports: WorkerReport[]): Map<number, WorkerResult[]> {
  const seen = new Map<number, WorkerResult[]>();
  for (const r of reports.flatMap((rep) => rep.results)) seen.set(r.id, [...(seen.get(r.id) ?? []), r]);
  return seen;
}

const WORKER = new URL("./draw-worker.mjs", import.meta.url);

/** The same workers as processes of their own, started together by a "go" message once all are ready. */
async function runProcesses(ids: number[], thrill: 2 | 3, now = NOW): Promise<WorkerReport[]> {
  const children: ChildProcess[] = [];
  const ready: Promise<void>[] = [];
  const done: Promise<WorkerReport>[] = [];
  for (let w = 0; w < WORKERS; w++) {
    const data = { dbFile: databasePath(), ids: shuffled(ids, w + 1), now, thrill };
    const child = fork(WORKER, [], {
      env: { ...process.env, DRAW_WORKER_DATA: JSON.stringify(data) },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    children.push(child);
    ready.push(new Promise((resolve) => child.on("message", (m: { type: string }) => m.type === "ready" && resolve())));
    done.push(
      new Promise((resolve, reject) => {
        child.on("message", (m: { type: string } & WorkerReport) => m.type === "done" && resolve(m));
        child.on("exit", (code) => code && reject(new Error(`process ${w} exited with ${code}`)));
      }),
    );
  }
  await Promise.all(ready);
  for (const child of children) child.send({ type: "go" });
  const reports = await Promise.all(done);
  return reports.map(({ results, errors }) => ({ results, errors }));
}

function runWorkers(ids: number[], thrill: 2 | 3 = 2): Promise<WorkerReport[]> {
  const startSignal = new SharedArrayBuffer(8);
  const flag = new Int32Array(startSignal);
  let ready = 0;
  return Promise.all(
    Array.from({ length: WORKERS }, (_, w) => {
      const worker = new Worker(WORKER, {
        workerData: { dbFile: databasePath(), ids: shuffled(ids, w + 1), now: NOW, startSignal, thrill },
      });
      return new Promise<WorkerReport>((resolve, reject) => {
        worker.on("message", (msg: { type: string } & WorkerReport) => {
          if (msg.type === "ready" && ++ready === WORKERS) {
            Atomics.store(flag, 0, 1);
            Atomics.notify(flag, 0);
          }
          if (msg.type === "done") resolve({ results: msg.results, errors: msg.errors });
        });
        worker.on("error", reject);
        worker.on("exit", (code) => code !== 0 && reject(new Error(`worker ${w} exited with ${code}`)));
      });
    }),
  );
}

describe("concurrent draws", () => {
  it(`${WORKERS} threads with their own connections draw ${ENTRIES} entries each over ${POOLS} pools: no pool overpays, every entry drawn once`, async () => {
    const { allocations, draws, preregistrations } = schema;
    const branch = makeBranch();
    const counts = Array.from({ length: POOLS }, (_, i) => (i % 5) + 1);
    const totalPrizes = counts.reduce((s, c) => s + c, 0);

    const { poolIds, otherIds, ids } = db.transaction(
      (tx) => {
        const poolIds = counts.map(
          (count, i) =>
            tx
              .insert(allocations)
              .values({
                type: "preregistration_public",
                date: DATE,
                amount: PRE_PRIZES[i % PRE_PRIZES.length].amount,
                count,
                probability: 100,
              })
              .returning()
              .get().id,
        );
        // Pools the public entries must never touch: another date, a branch pool.
        const otherIds = [
          tx
            .insert(allocations)
            .values({ type: "preregistration_public", date: "2026-11-22", amount: 50000, count: 5, probability: 100 })
            .returning()
            .get().id,
          tx
            .insert(allocations)
            .values({
              type: "preregistration_branch",
              branch_id: branch.id,
              date: DATE,
              amount: 50000,
              count: 5,
              probability: 100,
            })
            .returning()
            .get().id,
        ];
        const ids = Array.from(
          { length: ENTRIES },
          (_, i) =>
            makePreregistration({
              phone: `97${String(i).padStart(8, "0")}`,
              is_verified: true,
              status: "verified",
              verified_at: NOW,
            }).id,
        );
        return { poolIds, otherIds, ids };
      },
      { behavior: "immediate" },
    );

    const reports = await runWorkers(ids);

    expect(reports.flatMap((r) => r.errors)).toEqual([]);

    // Every pool paid exactly its count; the untouched pools paid nothing.
    const pools = db.select().from(allocations).all();
    const byId = new Map(pools.map((p) => [p.id, p]));
    for (const [i, id] of poolIds.entries()) expect(byId.get(id)!.paid, `pool ${id}`).toBe(counts[i]);
    for (const id of otherIds) expect(byId.get(id)!.paid).toBe(0);

    // Exactly one draws row per entry, and pool wins match what the pools paid.
    const drawRows = db.select().from(draws).where(eq(draws.entry_type, "preregistration")).all();
    expect(drawRows).toHaveLength(ENTRIES);
    expect(new Set(drawRows.map((d) => d.entry_id)).size).toBe(ENTRIES);
    const poolWins = drawRows.filter((d) => d.outcome === "pool");
    expect(poolWins).toHaveLength(totalPrizes);
    const winsPerPool = new Map<number, number>();
    for (const d of poolWins) winsPerPool.set(d.allocation_id!, (winsPerPool.get(d.allocation_id!) ?? 0) + 1);
    for (const [i, id] of poolIds.entries()) expect(winsPerPool.get(id) ?? 0).toBe(counts[i]);
    expect(drawRows.filter((d) => d.outcome === "fallback")).toHaveLength(ENTRIES - totalPrizes);

    // Every thread saw the same single draw per entry; exactly one thread made it.
    const seen = new Map<number, WorkerResult[]>();
    for (const r of reports.flatMap((rep) => rep.results)) seen.set(r.id, [...(seen.get(r.id) ?? []), r]);
    expect(seen.size).toBe(ENTRIES);
    for (const [id, results] of seen) {
      expect(results, `entry ${id}`).toHaveLength(WORKERS);
      expect(new Set(results.map((r) => r.draw_id)).size).toBe(1);
      expect(results.filter((r) => r.created)).toHaveLength(1);
    }

    // The threads really ran side by side: each of them made some of the draws.
    for (const rep of reports) expect(rep.results.filter((r) => r.created).length).toBeGreaterThan(0);

    // The entry's prize is the amount of its draw.
    const mismatched = db
      .select({ n: sql<number>`count(*)` })
      .from(preregistrations)
      .innerJoin(draws, and(eq(draws.entry_type, "preregistration"), eq(draws.entry_id, preregistrations.id)))
      .where(sql`${preregistrations.prize} is not ${draws.amount}`)
      .get()!.n;
    expect(mismatched).toBe(0);
  }, 180_000);

  it(`${WORKERS} processes draw the third thrill of 600 registrations over two branches' registration pools: no pool overpays, no branch takes another's, every registration drawn once`, async () => {
    const { allocations, draws, registrations } = schema;
    const branches = [makeBranch().id, makeBranch().id];
    const counts = Array.from({ length: 40 }, (_, i) => (i % 4) + 1);
    const poolsOf = new Map<number, number[]>();
    const ids = db.transaction(
      (tx) => {
        for (const branchId of branches)
          poolsOf.set(
            branchId,
            counts.map(
              (count, i) =>
                tx
                  .insert(allocations)
                  .values({
                    type: "registration_branch",
                    branch_id: branchId,
                    date: THIRD_DATE,
                    amount: REGISTRATION_PRIZES[i % REGISTRATION_PRIZES.length].amount,
                    count,
                    probability: 100,
                  })
                  .returning()
                  .get().id,
            ),
          );
        return Array.from({ length: 600 }, (_, i) => makeRegistration(branches[i % 2], { status: "confirmed" }).id);
      },
      { behavior: "immediate" },
    );

    const reports = await runProcesses(ids, 3, THIRD_NOW);
    expect(reports.flatMap((r) => r.errors)).toEqual([]);

    const rows = db.select().from(draws).where(eq(draws.entry_type, "registration")).all();
    expect(rows).toHaveLength(ids.length);
    expect(new Set(rows.map((d) => d.entry_id)).size).toBe(ids.length);
    const byId = new Map(
      db
        .select()
        .from(allocations)
        .all()
        .map((p) => [p.id, p]),
    );
    const branchOf = new Map(
      db
        .select()
        .from(registrations)
        .all()
        .map((r) => [r.id, r.branch_id]),
    );
    for (const [branchId, poolIds] of poolsOf) {
      for (const [i, id] of poolIds.entries()) {
        expect(byId.get(id)!.paid, `pool ${id}`).toBe(counts[i]);
        const wins = rows.filter((d) => d.allocation_id === id);
        expect(wins).toHaveLength(counts[i]);
        // A pool pays only registrations of its own branch.
        for (const d of wins) expect(branchOf.get(d.entry_id)).toBe(branchId);
      }
    }
    for (const [id, results] of groupById(reports)) {
      expect(results, `registration ${id}`).toHaveLength(WORKERS);
      expect(new Set(results.map((r) => r.draw_id)).size).toBe(1);
      expect(results.filter((r) => r.created)).toHaveLength(1);
    }
    for (const rep of reports) expect(rep.results.filter((r) => r.created).length).toBeGreaterThan(0);
  }, 180_000);
});
