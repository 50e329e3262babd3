/**
 * Fair draws: a day's draws made by three server processes at once check with the public
 * verifier (the same rules as scripts/verify-draws.mjs); changing any one prize, roll, pool
 * state, or the order of two draws makes it fail at that draw; the commitment cannot be
 * changed; the seed of a running day is never published; pools are still never over-paid.
 */
import { execFile, fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databasePath, db, schema } from "@db/index";
import {
  commitAhead,
  drawReference,
  drawsByReference,
  listDays,
  normaliseReference,
  publishedDay,
  type FairDay,
} from "~/models/fair-draw.server";
import { drawSecondThrill } from "~/models/prize-draw.server";
import { commitmentOf, recordText, sha256Hex, verifyDay } from "../../scripts/fair-draws-core.mjs";
import { makeBranch, makePreregistration } from "../fixtures";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fair-draws-"));
process.env.DATABASE_URL = `file:${path.join(dir, "fair.sqlite")}`;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const DATE = "2026-06-01";
const DURING = "2026-06-01T06:00:00.000Z"; // 11:45 in Kathmandu
const AFTER = new Date("2026-06-02T06:00:00.000Z");
const PROCESSES = 3;
const ENTRIES = 90;

const worker = fileURLToPath(new URL("./fair-draw-worker.mjs", import.meta.url));

async function drawInProcesses(idLists: number[][]): Promise<void> {
  const children: ChildProcess[] = [];
  const ready: Promise<void>[] = [];
  const done: Promise<{ errors: unknown[] }>[] = [];
  for (const _ of idLists) {
    const child = fork(worker, [], {
      env: { ...process.env, DATABASE_URL: `file:${databasePath()}` },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    children.push(child);
    ready.push(new Promise((resolve) => child.on("message", (m: { type: string }) => m.type === "ready" && resolve())));
    done.push(
      new Promise((resolve, reject) => {
        child.on("message", (m: { type: string; errors: unknown[] }) => m.type === "done" && resolve(m));
        child.on("exit", (code) => code && reject(new Error(`worker exited with ${code}`)));
      }),
    );
  }
  await Promise.all(ready);
  children.forEach((child, i) => child.send({ type: "go", ids: idLists[i], now: DURING }));
  const reports = await Promise.all(done);
  expect(reports.flatMap((r) => r.errors)).toEqual([]);
}

const pools: { id: number; count: number }[] = [];
let day: FairDay;

beforeAll(async () => {
  const branch = makeBranch();
  for (const [amount, count, probability] of [
    [50000, 2, 10],
    [10000, 5, 30],
    [5000, 5, 50],
    [5000, 4, 40],
  ]) {
    const row = db
      .insert(schema.allocations)
      .values({ type: "preregistration_public", branch_id: null, date: DATE, amount, count, probability })
      .returning()
      .get();
    pools.push({ id: row.id, count });
  }
  void branch;
  const ids = Array.from({ length: ENTRIES }, () => makePreregistration({ is_verified: true }).id);
  await drawInProcesses(Array.from({ length: PROCESSES }, (_, p) => ids.filter((_, i) => i % PROCESSES === p)));
  day = publishedDay(DATE, AFTER)!;
}, 120_000);

const copy = (d: FairDay): FairDay => JSON.parse(JSON.stringify(d));

/** The chain written again over a changed day: every prev and hash made anew from the commitment. */
async function rechain(d: FairDay): Promise<FairDay> {
  let prev = d.commitment;
  for (const r of d.records) {
    r.prev = prev;
    r.hash = await sha256Hex(recordText(r));
    prev = r.hash;
  }
  d.head = prev;
  return d;
}

describe("a day of draws by three processes", () => {
  it("is one whole chain that the verifier checks", async () => {
    expect(day.records).toHaveLength(ENTRIES);
    expect(day.records.map((r) => r.seq)).toEqual(Array.from({ length: ENTRIES }, (_, i) => i + 1));
    expect(await commitmentOf(day.seed!)).toBe(day.commitment);
    expect(await verifyDay(day)).toEqual({ ok: true, draws: ENTRIES });
  });

  it("never over-pays a pool", () => {
    for (const pool of pools) {
      const row = db.select().from(schema.allocations).where(eq(schema.allocations.id, pool.id)).get()!;
      const won = day.records.filter((r) => r.prize.allocation_id === pool.id).length;
      expect(row.paid).toBe(won);
      expect(won).toBeLessThanOrEqual(pool.count);
    }
  });

  it("fails at a draw whose record was changed afterwards (its hash no longer matches)", async () => {
    const d = copy(day);
    d.records[40].prize.amount += 1000;
    expect(await verifyDay(d)).toMatchObject({ ok: false, seq: 41, reason: expect.stringMatching(/changed/) });
  });

  // The stronger forger holds the database and writes the whole chain again from the change on:
  // every hash matches, and the rules themselves must catch the change.
  it("fails at the draw whose prize was changed, even with the chain written again", async () => {
    const d = copy(day);
    const r = d.records[40];
    r.prize =
      r.prize.outcome === "pool"
        ? { amount: 4000, outcome: "fallback", allocation_id: null }
        : { ...r.prize, amount: r.prize.amount === 4000 ? 5000 : 4000 };
    expect(await verifyDay(await rechain(d))).toMatchObject({
      ok: false,
      seq: 41,
      reason: expect.stringMatching(/prize/),
    });
  });

  it("fails at the draw whose roll was changed, even with the chain written again", async () => {
    const d = copy(day);
    d.records[10].rolls[0].value = d.records[10].rolls[0].value / 2;
    expect(await verifyDay(await rechain(d))).toMatchObject({
      ok: false,
      seq: 11,
      reason: expect.stringMatching(/seed/),
    });
  });

  it("fails at the draw whose pools' state was changed, even with the chain written again", async () => {
    const d = copy(day);
    const r = d.records.find((x) => x.seq > 1 && x.pools.some((p) => p.paid + 1 < p.count))!;
    r.pools.find((p) => p.paid + 1 < p.count)!.paid += 1;
    expect(await verifyDay(await rechain(d))).toMatchObject({
      ok: false,
      seq: r.seq,
      reason: expect.stringMatching(/Pool/),
    });
  });

  it("fails where two draws swap places", async () => {
    const d = copy(day);
    [d.records[20], d.records[21]] = [d.records[21], d.records[20]];
    expect(await verifyDay(d)).toMatchObject({ ok: false, seq: 22 });
  });

  it("fails where two draws swap places and are numbered and chained again, when the first won a pool", async () => {
    const d = copy(day);
    const i = d.records.findIndex(
      (r, k) =>
        k > 0 &&
        r.prize.outcome === "pool" &&
        d.records[k - 1].pools.some((p) => p.id === r.prize.allocation_id) &&
        d.records[k + 1]?.pools.some((p) => p.id === r.prize.allocation_id),
    );
    expect(i).toBeGreaterThan(0);
    [d.records[i], d.records[i + 1]] = [d.records[i + 1], d.records[i]];
    d.records.forEach((r, k) => (r.seq = k + 1));
    expect(await verifyDay(await rechain(d))).toMatchObject({ ok: false, seq: i + 1 });
  });

  it("fails when a draw is removed", async () => {
    const d = copy(day);
    d.records.splice(30, 1);
    expect(await verifyDay(d)).toMatchObject({ ok: false, seq: 32 });
  });

  it("fails when the seed is not the committed one", async () => {
    const d = copy(day);
    d.seed = "00".repeat(32);
    expect(await verifyDay(d)).toMatchObject({ ok: false, seq: 0 });
  });
});

describe("the command-line verifier", () => {
  const run = promisify(execFile);
  const script = fileURLToPath(new URL("../../scripts/verify-draws.mjs", import.meta.url));

  it("exits 0 for a whole day and 1 naming the first draw that does not check", async () => {
    const good = path.join(dir, "good.json");
    fs.writeFileSync(good, JSON.stringify(day));
    const ok = await run(process.execPath, [script, good]);
    expect(ok.stdout).toContain(`all ${ENTRIES} draws check`);

    const bad = copy(day);
    bad.records[5].prize.amount += 1;
    const badFile = path.join(dir, "bad.json");
    fs.writeFileSync(badFile, JSON.stringify(bad));
    const failed = await run(process.execPath, [script, badFile]).then(
      () => null,
      (err: { code: number; stdout: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toContain("draw 6");
  });
});

describe("the commitment and the seed", () => {
  it("a commitment cannot be changed or removed, nor a draw record", () => {
    expect(() =>
      db
        .update(schema.drawDays)
        .set({ commitment: "0".repeat(64) })
        .where(eq(schema.drawDays.date, DATE))
        .run(),
    ).toThrow(/never change/);
    expect(() => db.delete(schema.drawDays).where(eq(schema.drawDays.date, DATE)).run()).toThrow(/never change/);
    expect(() => db.update(schema.draws).set({ amount: 1 }).run()).toThrow(/cannot be changed/);
  });

  it("the running day's seed is not published; tomorrow's commitment is", () => {
    const during = new Date(DURING);
    commitAhead(undefined, during);
    const running = publishedDay(DATE, during)!;
    expect(running.seed).toBeNull();
    expect(running.records).toHaveLength(ENTRIES);
    const days = listDays(during);
    expect(days.find((d) => d.date === DATE)).toMatchObject({ seed: null, draws: ENTRIES, over: false });
    expect(days.find((d) => d.date === "2026-06-02")).toMatchObject({ seed: null, draws: 0 });
    const secret = db.select().from(schema.drawDays).where(eq(schema.drawDays.date, DATE)).get()!.seed;
    expect(JSON.stringify(days)).not.toContain(secret);
    expect(JSON.stringify(running)).not.toContain(secret);
    expect(listDays(AFTER).find((d) => d.date === DATE)?.seed).toBe(secret);
  });
});

describe("the public reference", () => {
  it("is short, grouped, case-free, and finds the visitor's own draw", () => {
    const entry = makePreregistration({ is_verified: true });
    const result = drawSecondThrill(entry.id, { now: new Date(DURING) });
    const ref = drawReference(entry.slug);
    expect(ref).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(ref).not.toContain(entry.slug);
    expect(normaliseReference(ref.toLowerCase().replace(/-/g, " "))).toBe(ref);
    const found = drawsByReference(ref.toLowerCase());
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ date: DATE, record: { ref, prize: { amount: result.amount } } });
    expect(drawsByReference("not a reference")).toEqual([]);
  });
});
