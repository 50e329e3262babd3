// Group commit (transactTogether): concurrent writes share one transaction and one commit, each in a
// savepoint of its own; a failing write rolls back alone; every promise settles after the commit; while
// another connection holds the write lock, the batch waits for it without holding the event loop; a batch
// takes on writes for BATCH_MS at most, and its callers go on through the run queue.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { fail, FailureError } from "~/utils/failure";
import { sharedCommits, transactTogether } from "~/models/transaction.server";
import { later, SLICE_MS } from "~/utils/run-queue.server";

const S = schema.settings;
const key = (k: string) => `group-commit-${k}`;
const stored = (k: string) =>
  db
    .select()
    .from(S)
    .where(eq(S.key, key(k)))
    .get()?.value ?? null;
const write = (k: string) => (tx: Parameters<Parameters<typeof transactTogether>[0]>[0]) =>
  tx
    .insert(S)
    .values({ key: key(k), value: JSON.stringify(k) })
    .run();

describe("transactTogether", () => {
  it("shares one transaction among the writes of one turn; a failure rolls back alone", async () => {
    const seen: number[] = [];
    const results = await Promise.allSettled([
      transactTogether((tx) => {
        write("a")(tx);
        seen.push(
          Number(tx.get<{ n: number }>(sql`select count(*) as n from settings where key like 'group-commit-%'`).n),
        );
        return "a";
      }),
      transactTogether((tx) => {
        write("b")(tx);
        throw new FailureError(fail.field("b", "refused"));
      }),
      transactTogether((tx) => {
        write("c")(tx);
        throw new Error("broken");
      }),
      transactTogether((tx) => {
        write("d")(tx);
        // The earlier writes of the batch are seen, the failed ones are not.
        seen.push(
          Number(tx.get<{ n: number }>(sql`select count(*) as n from settings where key like 'group-commit-%'`).n),
        );
        return "d";
      }),
    ]);
    expect(results[0]).toEqual({ status: "fulfilled", value: "a" });
    expect(results[1]).toMatchObject({ status: "fulfilled", value: { ok: false, message: "refused" } });
    expect(results[2]).toMatchObject({ status: "rejected", reason: { message: "broken" } });
    expect(results[3]).toEqual({ status: "fulfilled", value: "d" });
    expect(seen).toEqual([1, 2]);
    expect([stored("a"), stored("b"), stored("c"), stored("d")]).toEqual(['"a"', null, null, '"d"']);
  });

  it("settles after the commit: another connection reads every acknowledged write", async () => {
    const { default: Database } = await import("better-sqlite3");
    const { databasePath } = await import("@db/index");
    const keys = Array.from({ length: 30 }, (_, i) => `x${i}`);
    await Promise.all(keys.map((k) => transactTogether(write(k))));
    const other = new Database(databasePath(), { readonly: true });
    const n = other.prepare("select count(*) as n from settings where key like 'group-commit-x%'").get() as {
      n: number;
    };
    other.close();
    expect(n.n).toBe(30);
  });

  it("waits for another connection's write lock by timer, the event loop free meanwhile", async () => {
    const { default: Database } = await import("better-sqlite3");
    const { databasePath } = await import("@db/index");
    const other = new Database(databasePath());
    other.prepare("BEGIN IMMEDIATE").run();
    sharedCommits({ reset: true });
    let settled = false;
    const pending = transactTogether(write("waited")).finally(() => (settled = true));
    // Timers run while the batch waits: the lock is let go by one of them.
    const ticks = await new Promise<number>((resolve) => {
      let n = 0;
      const timer = setInterval(() => {
        n++;
        if (n === 5) {
          clearInterval(timer);
          resolve(n);
        }
      }, 10);
    });
    expect(ticks).toBe(5);
    expect(settled).toBe(false);
    expect(stored("waited")).toBeNull();
    // /healthz tells how long the batch has waited so far, and then the longest wait and the commit.
    expect(sharedCommits().waitingMs).toBeGreaterThanOrEqual(40);
    other.prepare("COMMIT").run();
    other.close();
    await pending;
    expect(stored("waited")).toBe('"waited"');
    const seen = sharedCommits({ reset: true });
    expect(seen).toMatchObject({ commits: 1, writes: 1, waitingMs: 0 });
    expect(seen.waitedMaxMs).toBeGreaterThanOrEqual(40);
    expect(sharedCommits()).toMatchObject({ commits: 0, writes: 0, waitedMaxMs: 0 });
  });

  it("lets its callers go on a slice of the event loop a turn, not all in one piece", async () => {
    let turn = 0;
    const timer = setInterval(() => turn++, 0); // timers run once a turn
    const turns: number[] = [];
    // Sixteen writes share a commit; each caller's answer then takes a little over a third of a slice.
    await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        transactTogether(write(`slice-${i}`)).then(() => {
          turns.push(turn);
          const end = performance.now() + SLICE_MS / 3 + 1;
          while (performance.now() < end);
        }),
      ),
    );
    clearInterval(timer);
    expect(sharedCommits({ reset: true }).commits).toBe(1);
    const perTurn = [...new Set(turns)].map((t) => turns.filter((u) => u === t).length);
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(3);
  });

  it("takes on no more writes once its writes have run BATCH_MS: the rest commit next", async () => {
    sharedCommits({ reset: true });
    // Each write holds the batch 4 ms: a 10 ms batch takes three, and ten take four commits.
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        transactTogether((tx) => {
          write(`long-${i}`)(tx);
          const end = performance.now() + 4;
          while (performance.now() < end);
        }),
      ),
    );
    expect(sharedCommits({ reset: true })).toMatchObject({ commits: 4, writes: 10 });
  });

  it("lets an atOnce caller go on right after the commit, ahead of the resume line", async () => {
    const ran: string[] = [];
    // Eight renders in the resume line, two to a slice: four turns of the loop.
    for (let i = 0; i < 8; i++)
      later("resume", () => {
        const end = performance.now() + SLICE_MS / 2;
        while (performance.now() < end);
        ran.push("render");
      });
    await Promise.all([
      transactTogether(write("in-line")).then(() => ran.push("in line")),
      transactTogether(write("at-once"), { atOnce: true }).then(() => ran.push("at once")),
    ]);
    expect(ran.indexOf("at once")).toBeLessThan(ran.lastIndexOf("render"));
    expect(ran.indexOf("in line")).toBeGreaterThan(ran.lastIndexOf("render"));
  });
});
