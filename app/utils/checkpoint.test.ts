// WAL checkpoints in a thread of their own: the connection stops checkpointing in its commits while
// the thread runs, the thread copies the log back into the database, and stop() hands checkpoints back.
import { afterAll, describe, expect, it } from "vitest";
import { db } from "@db/index";
import { startCheckpoints, type Checkpoint } from "./checkpoint.server";

const autocheckpoint = () => db.$client.pragma("wal_autocheckpoint", { simple: true });

afterAll(() => {
  db.$client.exec("drop table if exists checkpoint_scratch");
});

describe("checkpoints off the event loop", () => {
  it("are made by the thread while the connection makes none, and handed back at stop", async () => {
    expect(autocheckpoint()).toBe(1000);
    const results: Checkpoint[] = [];
    const stop = startCheckpoints({ everyMs: 50, onCheckpoint: (r) => results.push(r) });
    try {
      expect(autocheckpoint()).toBe(0);
      // About 1,500 pages of log in one commit: past SQLite's own threshold of 1,000.
      db.$client.exec("create table checkpoint_scratch (b blob)");
      db.$client.transaction(() => {
        const insert = db.$client.prepare("insert into checkpoint_scratch (b) values (randomblob(16000))");
        for (let i = 0; i < 350; i++) insert.run();
      })();
      const copied = await new Promise<Checkpoint>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no checkpoint of the log: ${JSON.stringify(results)}`)),
          20_000,
        );
        const look = setInterval(() => {
          const done = results.find((r) => "log" in r && r.log >= 1000 && r.checkpointed === r.log);
          if (done) {
            clearInterval(look);
            clearTimeout(timer);
            resolve(done);
          }
        }, 20);
      });
      expect(copied).toMatchObject({ busy: 0 });
      expect(results.some((r) => "error" in r)).toBe(false);
    } finally {
      await stop();
    }
    expect(autocheckpoint()).toBe(1000);
  });
});
