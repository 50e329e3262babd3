/**
 * Continuous replication with Litestream (the npm-installed binary, the committed litestream.yml) to a local
 * file replica: a server process writes and acknowledges records; the server and Litestream are killed with
 * SIGKILL (the machine is lost) and the database deleted; `restoreFromReplica` (npm run restore -- --replica)
 * brings it back, and every record acknowledged more than a few seconds before the kill is there.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { litestreamBinary, startReplication } from "../../scripts/litestream";
import { restoreFromReplica } from "../../scripts/restore";

/** Litestream copies the WAL every second and ships it every second (sync-interval 1s); a busy machine (CI running browsers beside it) delays both, so five seconds of margin. */
const LAG_MS = 5000;
const WRITE_MS = 8000;

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
  it("after the server and Litestream are killed and the database deleted, the replica holds every record acknowledged before the last seconds", async () => {
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
    const writer = spawn(process.execPath, ["--import", "tsx", "tests/unit/crash-writer.ts"], {
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

    // The machine is lost: both processes die at once, the database and Litestream's local files with them.
    const killedAt = Date.now();
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
      const old = acks.filter((a) => a.at <= killedAt - LAG_MS);
      expect(old.length).toBeGreaterThan(0);
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
