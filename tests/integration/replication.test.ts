/**
 * Continuous replication with Litestream (the npm-installed binary, the committed litestream.yml) to a local
 * file replica: a server process writes and acknowledges records; the server and Litestream are killed with
 * SIGKILL (the machine is lost) and the database deleted; `restoreFromReplica` (npm run restore -- --replica)
 * brings it back, and every record acknowledged up to one the replica was seen to hold is there. The lag is
 * read from the replica itself (restored again until it holds the marked record), not assumed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { litestreamBinary, litestreamRestore, startReplication } from "../../scripts/litestream";
import { restoreFromReplica } from "../../scripts/restore";

const WRITE_MS = 8000;
/** How long the replica may take to hold a record before the test calls replication broken. */
const REPLICA_TIMEOUT_MS = 60_000;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "replica-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

const exited = (c: ChildProcess) =>
  new Promise<void>((resolve) =>
    c.exitCode !== null || c.signalCode !== null ? resolve() : c.once("exit", () => resolve()),
  );

async function until(check: () => boolean, timeoutMs: number, what: string) {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("Litestream replication to a file replica", () => {
  it("after the server and Litestream are killed and the database deleted, the replica holds every record acknowledged up to one it was seen to hold", async () => {
    expect(fs.existsSync(litestreamBinary())).toBe(true);
    const file = path.join(dir, "data", "app.sqlite");
    const replica = path.join(dir, "replica");
    const url = `file://${replica}`;
    fs.mkdirSync(path.dirname(file));
    fs.copyFileSync(path.join(process.env.TEST_TMP_DIR!, "base.sqlite"), file);
    const wal = new Database(file);
    wal.pragma("journal_mode = WAL"); // as the server leaves it
    wal.close();

    const env = { ...process.env, DATABASE_URL: `file:${file}`, LITESTREAM_REPLICA_URL: url };
    const litestream = startReplication({ ...env, LITESTREAM_DB_PATH: file }, { quiet: true });
    children.push(litestream);
    const writer = spawn(process.execPath, ["--import", "tsx", "tests/integration/crash-writer.ts"], {
      env: { ...env, RATE_LIMIT_FACTOR: "1000000", SMS_WORKER_ID: "replicated" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(writer);

    const acks: { entry: number; at: number }[] = [];
    let started = 0;
    let rest = "";
    writer.stdout!.setEncoding("utf8");
    writer.stdout!.on("data", (chunk: string) => {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) {
        if (line === "ready") started = Date.now();
        const m = /^ack (\d+) /.exec(line);
        if (m) acks.push({ entry: Number(m[1]), at: Date.now() });
      }
    });
    await until(() => started > 0, 20_000, "the writer");
    await until(() => Date.now() - started > WRITE_MS, WRITE_MS + 1000, "the burst");

    // The record acknowledged last by now is the marker: restore the replica (aside) until it holds it, while
    // the writer goes on writing. Whatever was acknowledged up to the marker must survive the loss.
    const marker = acks.at(-1)!;
    expect(marker).toBeDefined();
    const peek = path.join(dir, "peek.sqlite");
    const replicaHolds = async (entry: number) => {
      fs.rmSync(peek, { force: true });
      await litestreamRestore(url, peek).catch(() => undefined);
      if (!fs.existsSync(peek)) return false;
      const copy = new Database(peek, { readonly: true });
      try {
        return copy.prepare("select 1 from preregistrations where id = ?").get(entry) !== undefined;
      } finally {
        copy.close();
      }
    };
    const seenFrom = Date.now();
    while (!(await replicaHolds(marker.entry))) {
      if (Date.now() - seenFrom > REPLICA_TIMEOUT_MS) throw new Error(`The replica never held entry ${marker.entry}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    console.log(`replica held the marked record ${Date.now() - marker.at} ms after it was acknowledged`);

    // The machine is lost: both processes die at once, the database and Litestream's local files with them.
    writer.kill("SIGKILL");
    litestream.kill("SIGKILL");
    await Promise.all([exited(writer), exited(litestream)]);
    for (const f of fs.readdirSync(path.dirname(file)))
      fs.rmSync(path.join(path.dirname(file), f), { recursive: true, force: true });
    expect(fs.readdirSync(path.dirname(file))).toEqual([]);

    const result = await restoreFromReplica({ url, dbFile: file, uploads: path.join(dir, "uploads") });
    expect(result.previous).toBeNull();
    const restored = new Database(file, { readonly: true });
    try {
      expect(restored.pragma("integrity_check", { simple: true })).toBe("ok");
      const present = new Set(restored.prepare("select id from preregistrations").pluck().all() as number[]);
      const old = acks.filter((a) => a.at <= marker.at);
      expect(old.length).toBeGreaterThan(0);
      expect(acks.length).toBeGreaterThan(old.length); // the writer went on past the marker until the kill
      expect(old.filter((a) => !present.has(a.entry))).toEqual([]);
      // Each of them with its code and its SMS, from the same transaction.
      const ids = old.map((a) => a.entry).join(",");
      expect(restored.prepare(`select count(*) from one_time_codes where subject_id in (${ids})`).pluck().get()).toBe(
        old.length,
      );
      expect(restored.prepare(`select count(*) from sms_messages where subject_id in (${ids})`).pluck().get()).toBe(
        old.length,
      );
    } finally {
      restored.close();
    }
  });
});
