// Public reads are kept until what they show changes, whoever changes it: another connection (another
// server process) included. A prize payout does not throw the cache away, unless it was a pool's last; a new
// pool does.
import Database from "better-sqlite3";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { databasePath, db, schema } from "@db/index";
import { listBikeModels } from "~/models/bike-model.server";
import { listBranchOptions, listBranches } from "~/models/branch.server";
import { topPrize } from "~/models/landing.server";
import { cachedPublic, publicVersion } from "~/models/public-cache.server";
import { makeAllocation, makeBikeModel, makeBranch } from "../fixtures";

/** Another process's connection to the same database file. */
function otherProcess<T>(fn: (d: Database.Database) => T): T {
  const d = new Database(databasePath());
  d.pragma("busy_timeout = 5000");
  try {
    return fn(d);
  } finally {
    d.close();
  }
}

describe("the public read cache", () => {
  it("reads once, then again only after a change made by another connection", () => {
    let loads = 0;
    const read = () => cachedPublic("test-count", () => ++loads);
    expect(read()).toBe(1);
    expect(read()).toBe(1);
    otherProcess((d) => d.prepare("update settings set value = value where key = 'registration_open'").run());
    expect(read()).toBe(2);
    expect(read()).toBe(2);
  });

  it("a branch or bike model added elsewhere shows on the next read", () => {
    const before = listBranches().length;
    otherProcess((d) =>
      d
        .prepare(
          "insert into branches (slug, title, state, district, city) values ('cache-test', 'Cache Test Motors', 'Bagmati', 'Kathmandu', 'Kathmandu')",
        )
        .run(),
    );
    expect(listBranches().map((b) => b.title)).toContain("Cache Test Motors");
    expect(listBranches().length).toBe(before + 1);
    const model = makeBikeModel("Cache Test 250");
    expect(listBikeModels().map((m) => m.id)).toContain(model.id);
  });

  it("the list filters' options, closed branches and retired models included, follow a change made elsewhere", () => {
    const branch = makeBranch();
    const model = makeBikeModel("Cache Filter 300");
    const options = () => listBranchOptions({ includeClosed: true });
    const models = () => listBikeModels({ includeRetired: true });
    expect(options().find((b) => b.id === branch.id)).toBeDefined();
    expect(models().find((m) => m.id === model.id)).toBeDefined();
    otherProcess((d) => {
      d.prepare("update branches set title = 'Renamed Filter Motors' where id = ?").run(branch.id);
      d.prepare("update bike_models set title = 'Cache Filter 350' where id = ?").run(model.id);
    });
    expect(options().find((b) => b.id === branch.id)?.title).toBe("Renamed Filter Motors");
    expect(models().find((m) => m.id === model.id)?.title).toBe("Cache Filter 350");
    otherProcess((d) => {
      d.prepare("update branches set deleted_at = '2026-01-01T00:00:00.000Z' where id = ?").run(branch.id);
      d.prepare("update bike_models set deleted_at = '2026-01-01T00:00:00.000Z' where id = ?").run(model.id);
    });
    expect(options().some((b) => b.id === branch.id)).toBe(false);
    expect(models().some((m) => m.id === model.id)).toBe(false);
  });

  it("a prize payout keeps the cache; a new pool moves it", () => {
    const branch = makeBranch();
    const pool = makeAllocation({
      type: "registration_branch",
      branch_id: branch.id,
      date: "2031-01-01",
      amount: 5000,
      count: 3,
    });
    const v = publicVersion();
    db.update(schema.allocations).set({ paid: 1 }).where(eq(schema.allocations.id, pool.id)).run();
    expect(publicVersion()).toBe(v);
    makeAllocation({ type: "registration_branch", branch_id: branch.id, date: "2031-01-01", amount: 4000, count: 1 });
    expect(publicVersion()).toBe(v + 1);
  });

  it("a pool's last prize paid moves it once (the landing's headline), and so does a prize given back", () => {
    const date = "2031-02-01";
    const top = makeAllocation({ type: "preregistration_public", date, amount: 50000, count: 2 });
    makeAllocation({ type: "preregistration_public", date, amount: 10000, count: 5 });
    expect(topPrize(date)).toBe(50000);
    const pay = (paid: number) =>
      db.update(schema.allocations).set({ paid }).where(eq(schema.allocations.id, top.id)).run();
    const v = publicVersion();
    pay(1);
    expect(publicVersion()).toBe(v);
    expect(topPrize(date)).toBe(50000);
    pay(2);
    expect(publicVersion()).toBe(v + 1);
    expect(topPrize(date)).toBe(10000);
    pay(1);
    expect(publicVersion()).toBe(v + 2);
    expect(topPrize(date)).toBe(50000);
  });

  it("hands out values no request can change", () => {
    const list = listBranches();
    expect(Object.isFrozen(list)).toBe(true);
    expect(() => (list as unknown as { push: (x: unknown) => void }).push({})).toThrow();
  });
});
