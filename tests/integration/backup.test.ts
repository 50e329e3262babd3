/**
 * `npm run backup` and `npm run restore`: an online backup (SQLite's backup API) taken while writes go on,
 * verified against the source; a restore refused while another process has the database open, verified, and
 * undoable; a damaged backup never restored.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { databasePath, db, openDatabase, schema } from "@db/index";
import { queueSms } from "~/models/sms.server";
import { backupDatabase, pruneBackups, tableCounts, type Manifest } from "../../scripts/backup";
import { restoreBackup, RestoreError } from "../../scripts/restore";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "backup-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const count = (file: string, table: string) => {
  const d = new Database(file, { readonly: true });
  try {
    return d.prepare(`select count(*) from ${table}`).pluck().get() as number;
  } finally {
    d.close();
  }
};
const manifestOf = (folder: string) =>
  JSON.parse(fs.readFileSync(path.join(folder, "manifest.json"), "utf8")) as Manifest;

/** A database file of its own with `n` queued SMS and one upload, closed again (a stopped server). */
function makeDatabase(name: string, n: number) {
  const file = path.join(dir, name, "app.sqlite");
  const uploads = path.join(dir, name, "uploads");
  fs.mkdirSync(path.join(uploads, "screenshot"), { recursive: true });
  fs.writeFileSync(path.join(uploads, "screenshot", "proof.webp"), "image-bytes");
  const d = openDatabase(file);
  d.insert(schema.files)
    .values({
      key: `k-${name}`,
      type: "screenshot",
      filename: "proof.webp",
      path: "screenshot/proof.webp",
      mime: "image/webp",
      size: 11,
    })
    .run();
  const insert = d.$client.prepare(
    "insert into sms_messages (\"to\", text, purpose, status, provider, due_at) values (?, ?, 'broadcast', 'queued', 'outbox', '')",
  );
  d.$client.transaction(() => {
    for (let i = 0; i < n; i++) insert.run(`98${String(i).padStart(8, "0")}`, `message ${i}`);
  })();
  d.$client.close();
  return { file, uploads };
}

describe("npm run backup", () => {
  it("copies the live database with the backup API while writes go on, and verifies it against the source", async () => {
    // The app's own connection holds the database and keeps writing during the backup.
    queueSms(
      Array.from({ length: 4000 }, (_, i) => ({
        to: "9811111111",
        text: `Offer number ${i} `.repeat(8),
        purpose: "broadcast" as const,
      })),
    );
    const uploads = path.join(dir, "live-uploads");
    fs.mkdirSync(uploads);
    const sourceCount = () => db.$client.prepare("select count(*) from sms_messages").pluck().get() as number;
    const countBefore = sourceCount();
    let writes = 0;
    const writer = setInterval(() => {
      queueSms([{ to: "9822222222", text: "during the backup", purpose: "notify" }]);
      writes++;
    }, 1);
    let result;
    try {
      result = await backupDatabase({ dbFile: databasePath(), uploads, out: path.join(dir, "backups") });
    } finally {
      clearInterval(writer);
    }
    const countAfter = sourceCount();
    const { dir: folder, manifest } = result;
    expect(writes).toBeGreaterThan(0);
    expect(fs.readdirSync(folder).sort()).toEqual(["app.sqlite", "manifest.json", "uploads"]);
    expect(path.basename(folder)).toMatch(/^\d{4}-\d{2}-\d{2}_\d{6}$/);
    expect(manifest.database.integrity).toBe("ok");
    // One moment: the copy holds exactly what the source held when the copy began (and the writes went on).
    const copy = new Database(path.join(folder, "app.sqlite"), { readonly: true });
    try {
      expect(tableCounts(copy)).toEqual(manifest.database.counts);
      expect(copy.pragma("journal_mode", { simple: true })).toBe("delete");
      // Against the source itself: the copy's messages are exactly the source's first n (one moment, no
      // row missing in the middle), n between what the source held before and after the copy.
      const { n, top, sum } = copy.prepare("select count(*) n, max(id) top, sum(id) sum from sms_messages").get() as {
        n: number;
        top: number;
        sum: number;
      };
      expect(n).toBeGreaterThanOrEqual(countBefore);
      expect(n).toBeLessThanOrEqual(countAfter);
      expect(countAfter).toBeGreaterThan(n);
      const source = db.$client.prepare("select count(*) n, sum(id) sum from sms_messages where id <= ?").get(top);
      expect(source).toEqual({ n, sum });
    } finally {
      copy.close();
    }
    expect(manifest.database.counts.sms_messages).toBeGreaterThanOrEqual(4000);
    // Writes committed while the copy was being made are in the source, not in the copy.
    expect(db.select().from(schema.smsMessages).all().length).toBeGreaterThan(manifest.database.counts.sms_messages);
    expect(fs.existsSync(path.join(folder, "app.sqlite-wal"))).toBe(false);
  });

  it("copies the uploads and checks every stored file is there with its size", async () => {
    const { file, uploads } = makeDatabase("with-uploads", 10);
    const { dir: folder, manifest } = await backupDatabase({ dbFile: file, uploads, out: path.join(dir, "b2") });
    expect(fs.readFileSync(path.join(folder, "uploads", "screenshot", "proof.webp"), "utf8")).toBe("image-bytes");
    expect(manifest.uploads).toEqual({ files: 1, bytes: 11 });
    fs.rmSync(path.join(uploads, "screenshot", "proof.webp"));
    await expect(
      backupDatabase({ dbFile: file, uploads, out: path.join(dir, "b2"), at: new Date(Date.now() + 5000) }),
    ).rejects.toThrow(/Uploads missing from the backup: screenshot\/proof.webp: missing/);
  });

  it("refuses a missing database; keeps only the newest backups when asked", async () => {
    await expect(backupDatabase({ dbFile: path.join(dir, "nope.sqlite"), out: path.join(dir, "b3") })).rejects.toThrow(
      /No database/,
    );
    const out = path.join(dir, "b4");
    for (const name of ["2026-11-20_010000", "2026-11-21_010000", "2026-11-22_010000"]) {
      fs.mkdirSync(path.join(out, name), { recursive: true });
      fs.writeFileSync(path.join(out, name, "manifest.json"), "{}");
    }
    fs.mkdirSync(path.join(out, "not-a-backup"));
    expect(pruneBackups(out, 2)).toEqual(["2026-11-20_010000"]);
    expect(fs.readdirSync(out).sort()).toEqual(["2026-11-21_010000", "2026-11-22_010000", "not-a-backup"]);
  });
});

describe("npm run restore", () => {
  it("is refused while another process has the database open; with it stopped, restores, verifies and keeps the old file", async () => {
    const { file, uploads } = makeDatabase("restore", 50);
    const { dir: folder } = await backupDatabase({ dbFile: file, uploads, out: path.join(dir, "r-backups") });
    // Life goes on after the backup: more rows, an upload lost.
    const later = openDatabase(file);
    later.$client.prepare("delete from sms_messages where id <= 10").run();
    later.$client.close();
    fs.rmSync(path.join(uploads, "screenshot", "proof.webp"));

    const holder = spawn(process.execPath, [
      "-e",
      `const D = require("better-sqlite3"); const d = new D(${JSON.stringify(file)}); d.prepare("select 1").get(); console.log("open"); setInterval(() => {}, 1000);`,
    ]);
    await new Promise<void>((resolve) => holder.stdout.once("data", () => resolve()));
    try {
      await expect(restoreBackup({ from: folder, dbFile: file, uploads })).rejects.toThrow(RestoreError);
      await expect(restoreBackup({ from: folder, dbFile: file, uploads })).rejects.toThrow(/open in another process/);
    } finally {
      holder.kill("SIGKILL");
      await new Promise((resolve) => holder.once("exit", resolve));
    }
    expect(count(file, "sms_messages")).toBe(40);

    const result = await restoreBackup({ from: folder, dbFile: file, uploads });
    expect(count(file, "sms_messages")).toBe(50);
    expect(result.counts).toEqual(manifestOf(folder).database.counts);
    expect(result.uploadsRestored).toBe(1);
    expect(fs.readFileSync(path.join(uploads, "screenshot", "proof.webp"), "utf8")).toBe("image-bytes");
    expect(result.previous && count(result.previous, "sms_messages")).toBe(40);
    const restored = new Database(file);
    expect(restored.pragma("integrity_check", { simple: true })).toBe("ok");
    restored.close();
    // The restored file opens as the server opens it (WAL, migrations already applied).
    const reopened = openDatabase(file);
    expect(reopened.select().from(schema.files).all()).toHaveLength(1);
    reopened.$client.close();
  });

  it("never restores a backup that fails its checks; the database stays as it was", async () => {
    const { file, uploads } = makeDatabase("damaged", 2000);
    const { dir: folder } = await backupDatabase({ dbFile: file, uploads, out: path.join(dir, "d-backups") });
    const before = fs.readFileSync(file);

    const manifestFile = path.join(folder, "manifest.json");
    const manifest = manifestOf(folder);
    fs.writeFileSync(
      manifestFile,
      JSON.stringify({
        ...manifest,
        database: { ...manifest.database, counts: { ...manifest.database.counts, sms_messages: 1999 } },
      }),
    );
    await expect(restoreBackup({ from: folder, dbFile: file, uploads })).rejects.toThrow(
      /does not match its manifest: sms_messages: 1999 != 2000/,
    );
    fs.writeFileSync(manifestFile, JSON.stringify(manifest));

    // Garbage over a page in the middle of the copy.
    const backupFile = path.join(folder, "app.sqlite");
    const fd = fs.openSync(backupFile, "r+");
    const size = fs.fstatSync(fd).size;
    fs.writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, Math.floor(size / 2 / 4096) * 4096);
    fs.closeSync(fd);
    const damaged = restoreBackup({ from: folder, dbFile: file, uploads });
    await expect(damaged).rejects.toThrow(RestoreError);
    // Which of SQLite's two refusals depends on the page the garbage lands on (the schema's layout).
    const escaped = backupFile.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    await expect(damaged).rejects.toThrow(new RegExp(`^The backup ${escaped} (is damaged|failed integrity_check)`));
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(fs.existsSync(`${file}.restoring`)).toBe(false);
  });

  it("both commands work from the command line", () => {
    const { file, uploads } = makeDatabase("cli", 5);
    const out = path.join(dir, "cli-backups");
    const env = { ...process.env, DATABASE_URL: `file:${file}`, UPLOADS_DIR: uploads };
    const backup = spawnSync(process.execPath, ["--import", "tsx", "scripts/backup.ts", "--out", out], {
      env,
      encoding: "utf8",
    });
    expect(backup.stderr).toBe("");
    expect(backup.status).toBe(0);
    expect(backup.stdout).toMatch(
      /^Backup .+: database \d+ bytes, \d+ rows in \d+ tables, integrity ok, counts match; 1 uploads\.$/m,
    );
    const folder = path.join(out, fs.readdirSync(out)[0]);
    const restore = spawnSync(process.execPath, ["--import", "tsx", "scripts/restore.ts", folder], {
      env,
      encoding: "utf8",
    });
    expect(restore.status).toBe(0);
    expect(restore.stdout).toMatch(/Restored .+app\.sqlite: integrity ok/);
  });
});
