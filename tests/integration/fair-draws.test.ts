/**
 * Fair draws with the beacon: entries fixed and drawn by three server processes at once against
 * the local beacon (drand's API on 127.0.0.1) make one chain that the checker verifies, BLS
 * signatures included; each entry is decided by the first round after it was fixed; the pools are
 * the day's committed ones and are never over-paid; the committed day cannot be overwritten, nor
 * its pools changed; the running day's house seed is published only once the day is closed.
 */
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databasePath, db, schema } from "@db/index";
import {
  commitAhead,
  drawReference,
  listDays,
  ownDraws,
  publishedDay,
  publishedDayPage,
} from "~/models/fair-draw.server";
import { drawSecondThrill } from "~/models/prize-draw.server";
import { roundAfter, roundTimeMs, verifyDay, type DayFile } from "../../scripts/fair-draws-core.mjs";
import { signatureVerifies } from "../../scripts/fair-draws-bls.mjs";
import { setClock } from "~/utils/time";
import { movingClock } from "../clock";
import { makePreregistration } from "../fixtures";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fair-draws-"));
process.env.DATABASE_URL = `file:${path.join(dir, "fair.sqlite")}`;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const DATE = "2026-06-01";
const DURING = "2026-06-01T06:00:00.000Z"; // 11:45 in Kathmandu
const AFTER = new Date("2026-06-02T06:00:00.000Z");
const PROCESSES = 3;
const ENTRIES = 90;

const worker = fileURLToPath(new URL("./fair-draw-worker.mjs", import.meta.url));

async function drawInProcesses(idLists: number[][], now: string): Promise<void> {
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
  children.forEach((child, i) => child.send({ type: "go", ids: idLists[i], now }));
  const reports = await Promise.all(done);
  expect(reports.flatMap((r) => r.errors)).toEqual([]);
}

const pools: { id: number; count: number }[] = [];
let day: DayFile & ReturnType<typeof publishedDay>;
const records = () => day!.records.map((r) => JSON.parse(r.text) as Record<string, never>);

beforeAll(async () => {
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
  const ids = Array.from({ length: ENTRIES }, () => makePreregistration({ is_verified: true }).id);
  await drawInProcesses(
    Array.from({ length: PROCESSES }, (_, p) => ids.filter((_, i) => i % PROCESSES === p)),
    DURING,
  );
  day = publishedDay(DATE, AFTER)! as typeof day;
}, 120_000);

describe("a day of draws by three processes against the beacon", () => {
  it("is one chain of every entry fixed and drawn, that the checker verifies with the beacon's signatures", async () => {
    const all = records();
    expect(all.filter((r) => r.kind === "entry")).toHaveLength(ENTRIES);
    expect(all.filter((r) => r.kind === "draw")).toHaveLength(ENTRIES);
    expect(all.filter((r) => r.kind === "draw" && r.source !== "beacon").map((r) => r.reason)).toEqual([]);
    expect(day!.closed).toBe(true);
    const result = await verifyDay(day!, { signatures: signatureVerifies });
    expect(result).toMatchObject({ ok: true, entries: ENTRIES, draws: ENTRIES, house: 0, unchecked: 0, notDrawn: [] });
  });

  it("decides each entry by the first beacon round after it was fixed, drawn only once that round was out", () => {
    const chain = JSON.parse(day!.terms).chain;
    const all = records();
    for (const entry of all.filter((r) => r.kind === "entry")) {
      const round = roundAfter(chain, Date.parse(entry.time));
      expect(entry.beacon_round).toBe(round);
      expect(roundTimeMs(chain, round)).toBeGreaterThan(Date.parse(entry.time));
      const drawn = all.find((r) => r.kind === "draw" && r.entry === entry.seq)!;
      expect(Date.parse(drawn.time)).toBeGreaterThanOrEqual(roundTimeMs(chain, round));
    }
  });

  it("draws from the day's committed pools and never over-pays one", () => {
    const terms = JSON.parse(day!.terms);
    expect(terms.pools.map((p: { id: number }) => p.id)).toEqual(pools.map((p) => p.id));
    for (const pool of pools) {
      const row = db.select().from(schema.allocations).where(eq(schema.allocations.id, pool.id)).get()!;
      const won = records().filter((r) => r.kind === "draw" && (r.prize as { pool: number }).pool === pool.id).length;
      expect(row.paid).toBe(won);
      expect(won).toBeLessThanOrEqual(pool.count);
    }
  });

  it("publishes the house seed only once the day is closed", () => {
    const running = publishedDay(DATE, new Date(DURING))!;
    expect(running.house_seed).toBeNull();
    expect(day!.house_seed).toMatch(/^[0-9a-f]{64}$/);
    const list = listDays(new Date(DURING)).find((d) => d.date === DATE)!;
    expect(list).toMatchObject({ draws: ENTRIES, entries: ENTRIES, over: false, closed: false });
    expect(JSON.stringify(listDays(new Date(DURING)))).not.toContain(day!.house_seed!);
  });
});

describe("a day's public page", () => {
  it("shows the records a page at a time, together the whole day, and opens on the page of a record asked for", () => {
    const size = 40;
    const first = publishedDayPage(DATE, { size }, AFTER)!;
    const pages = Math.ceil(day!.records.length / size);
    expect(pages).toBeGreaterThan(2);
    expect(first).toMatchObject({ page: 1, pages, head: day!.head, terms_hash: day!.terms_hash });
    const all = Array.from({ length: pages }, (_, i) => publishedDayPage(DATE, { page: i + 1, size }, AFTER)!.records);
    expect(all.every((r, i) => r.length === (i < pages - 1 ? size : day!.records.length - size * (pages - 1)))).toBe(
      true,
    );
    expect(all.flat()).toEqual(day!.records);
    // A record's own page, by its seq; a page past the last shows the last; a seq of another day, the first.
    const seqs = records().map((r) => r.seq as unknown as number);
    const target = seqs[size * 2 + 3];
    const holding = publishedDayPage(DATE, { seq: target, size }, AFTER)!;
    expect(holding.page).toBe(3);
    expect(holding.records.map((r) => JSON.parse(r.text).seq)).toContain(target);
    expect(publishedDayPage(DATE, { page: pages + 5, size }, AFTER)!.page).toBe(pages);
    expect(publishedDayPage(DATE, { seq: seqs[0] - 1, size }, AFTER)!.page).toBe(1);
  });
});

describe("a committed day", () => {
  it("cannot be changed, removed or replaced, nor its records, nor its pools", () => {
    const row = db.select().from(schema.fairDays).where(eq(schema.fairDays.date, DATE)).get()!;
    expect(() =>
      db
        .update(schema.fairDays)
        .set({ terms_hash: "0".repeat(64) })
        .run(),
    ).toThrow(/never change/);
    expect(() => db.delete(schema.fairDays).where(eq(schema.fairDays.date, DATE)).run()).toThrow(/never change/);
    const replace = db.$client.prepare(
      "INSERT OR REPLACE INTO fair_days (date, terms, terms_hash, house_commitment, house_sealed) VALUES (?, ?, ?, ?, ?)",
    );
    expect(() => replace.run(DATE, row.terms, "0".repeat(64), row.house_commitment, row.house_sealed)).toThrow(
      /never change/,
    );
    const first = db.select().from(schema.drawRecords).where(eq(schema.drawRecords.seq, 1)).get()!;
    expect(() =>
      db.$client
        .prepare(
          "INSERT OR REPLACE INTO draw_records (seq, kind, date, time, ref, text, hash) VALUES (?, ?, ?, ?, ?, ?, ?)",
        )
        .run(1, first.kind, first.date, first.time, first.ref, first.text.replace("second", "third"), "f".repeat(64)),
    ).toThrow(/cannot be changed/);
    expect(() => db.update(schema.drawRecords).set({ text: "{}" }).run()).toThrow(/cannot be changed/);
    expect(() => db.delete(schema.drawRecords).run()).toThrow(/cannot be changed/);
    expect(() => db.$client.prepare("INSERT OR REPLACE INTO draws SELECT * FROM draws LIMIT 1").run()).toThrow(
      /cannot be changed/,
    );
    expect(() =>
      db
        .insert(schema.allocations)
        .values({ type: "preregistration_public", date: DATE, amount: 90000, count: 5, probability: 100 })
        .run(),
    ).toThrow(/committed day/);
    expect(() =>
      db.update(schema.allocations).set({ probability: 100 }).where(eq(schema.allocations.id, pools[0].id)).run(),
    ).toThrow(/committed day/);
    expect(() =>
      db.update(schema.allocations).set({ count: 5 }).where(eq(schema.allocations.id, pools[0].id)).run(),
    ).toThrow(/committed day/);
    expect(db.select().from(schema.fairDays).where(eq(schema.fairDays.date, DATE)).get()).toEqual(row);
  });

  it("commits tomorrow's terms from the commit hour on, not before", () => {
    commitAhead(undefined, new Date("2026-06-01T10:00:00.000Z")); // 15:45
    expect(db.select().from(schema.fairDays).where(eq(schema.fairDays.date, "2026-06-02")).get()).toBeUndefined();
    commitAhead(undefined, new Date("2026-06-01T17:00:00.000Z")); // 22:45
    expect(db.select().from(schema.fairDays).where(eq(schema.fairDays.date, "2026-06-02")).get()).toBeDefined();
  });
});

describe("the public id", () => {
  it("finds the visitor's own entry and draw", async () => {
    const entry = makePreregistration({ is_verified: true });
    setClock(movingClock(DURING));
    const result = await drawSecondThrill(entry.id).finally(() => setClock(null));
    const ref = drawReference(entry.slug);
    expect(ref).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    const found = ownDraws(ref);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ date: DATE, id: ref, drawn: { amount: result.amount, house: false } });
    expect(
      db
        .select({ n: sql<number>`count(*)` })
        .from(schema.drawQueue)
        .get()!.n,
    ).toBe(0);
  });
});
