/**
 * Online backup of the live database and the uploads into a dated folder, verified.
 *
 *   npm run backup [-- --out /var/backups/campaign] [--keep 48]
 *
 * The database is copied with SQLite's backup API (better-sqlite3 `db.backup()`), never by copying the file:
 * the server keeps serving and writing meanwhile. The copy and the row counts are read inside one read
 * transaction, so they describe the same moment exactly. The uploads referenced by that moment were all written
 * before it, so they are copied after it. The folder then holds:
 *   app.sqlite      the database (rollback journal, one self-contained file)
 *   uploads/        the uploads folder
 *   manifest.json   when, from where, row counts per table, sizes, sha256
 * and is verified: integrity_check, the row counts against the source's, every stored file present with its size.
 * Folders are named by Kathmandu time (YYYY-MM-DD_HHmmss); --keep N (BACKUP_KEEP) removes all but the N newest.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { TZDate } from "@date-fns/tz";
import Database from "better-sqlite3";
import { format } from "date-fns";
import { databasePath } from "@db/index";
import { uploadsDir } from "~/utils/config.server";
import { CAMPAIGN_TZ } from "~/utils/time";

export const BACKUP_DB = "app.sqlite";
export const BACKUP_UPLOADS = "uploads";
export const MANIFEST = "manifest.json";
const FOLDER = /^\d{4}-\d{2}-\d{2}_\d{6}$/;

export type Counts = Record<string, number>;

export type Manifest = {
  created_at: string;
  source: string;
  database: { file: string; bytes: number; sha256: string; integrity: string; counts: Counts };
  uploads: { files: number; bytes: number };
};

/** Row counts of every table (migrations' bookkeeping and search tables included), by name. */
export function tableCounts(db: Database.Database): Counts {
  const tables = db
    .prepare(
      "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and sql not like 'CREATE VIRTUAL TABLE%' order by name",
    )
    .pluck()
    .all() as string[];
  const counts: Counts = {};
  for (const t of tables)
    counts[t] = db
      .prepare(`select count(*) from "${t.replace(/"/g, '""')}"`)
      .pluck()
      .get() as number;
  return counts;
}

/** integrity_check's answer ("ok" when the file is sound). */
export function integrity(db: Database.Database): string {
  return (db.pragma("integrity_check", { simple: false }) as { integrity_check: string }[])
    .map((r) => r.integrity_check)
    .join("; ");
}

/** Opens a database file to read it (no migrations, waits for writers). */
export function openForReading(file: string): Database.Database {
  const db = new Database(file, { fileMustExist: true });
  db.pragma("busy_timeout = 10000");
  return db;
}

export function sha256File(file: string): string {
  return crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

export function sameCounts(a: Counts, b: Counts): string[] {
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...names].filter((n) => a[n] !== b[n]).map((n) => `${n}: ${a[n] ?? "missing"} != ${b[n] ?? "missing"}`);
}

/** Every file the database knows (files.path, files.size) is in `dir` with its size; returns the problems. */
export function missingUploads(db: Database.Database, dir: string): string[] {
  const hasFiles = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'files'").get();
  if (!hasFiles) return [];
  const rows = db.prepare("select path, size from files").all() as { path: string; size: number }[];
  const problems: string[] = [];
  for (const r of rows) {
    const full = path.join(dir, r.path);
    if (!fs.existsSync(full)) problems.push(`${r.path}: missing`);
    else if (fs.statSync(full).size !== r.size)
      problems.push(`${r.path}: ${fs.statSync(full).size} bytes, expected ${r.size}`);
  }
  return problems;
}

function folderSize(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  if (!fs.existsSync(dir)) return { files, bytes };
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files++;
    bytes += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return { files, bytes };
}

export type BackupOptions = { dbFile?: string; uploads?: string; out?: string; at?: Date };

/** Takes, verifies and describes one backup; returns its folder and manifest. Throws when the check fails. */
export async function backupDatabase(options: BackupOptions = {}): Promise<{ dir: string; manifest: Manifest }> {
  const source = path.resolve(options.dbFile ?? databasePath());
  const uploads = path.resolve(options.uploads ?? uploadsDir());
  const out = path.resolve(options.out ?? process.env.BACKUP_DIR ?? "backups");
  const at = options.at ?? new Date();
  if (!fs.existsSync(source)) throw new Error(`No database at ${source}`);
  const dir = path.join(out, format(new TZDate(at.getTime(), CAMPAIGN_TZ), "yyyy-MM-dd_HHmmss"));
  fs.mkdirSync(out, { recursive: true });
  fs.mkdirSync(dir); // fails if that second's backup exists
  const target = path.join(dir, BACKUP_DB);

  const src = openForReading(source);
  let counts: Counts;
  try {
    // One read transaction: the copy and the counts see the same snapshot; the server's writes go on in the WAL
    // (and do not restart the copy, which they would outside a transaction).
    src.exec("BEGIN");
    counts = tableCounts(src);
    await src.backup(target, { progress: () => 256 }); // 256 pages a step, the event loop free between steps
    src.exec("COMMIT");
  } finally {
    if (src.inTransaction) src.exec("ROLLBACK");
    src.close();
  }

  // One self-contained file: no -wal beside it.
  const copy = new Database(target);
  let check: string;
  let copied: Counts;
  try {
    copy.pragma("journal_mode = DELETE");
    check = integrity(copy);
    copied = tableCounts(copy);
  } finally {
    copy.close();
  }
  if (check !== "ok") throw new Error(`The backup failed integrity_check: ${check}`);
  const differ = sameCounts(counts, copied);
  if (differ.length) throw new Error(`The backup's row counts differ from the source's: ${differ.join(", ")}`);

  const uploadsCopy = path.join(dir, BACKUP_UPLOADS);
  if (fs.existsSync(uploads)) fs.cpSync(uploads, uploadsCopy, { recursive: true, preserveTimestamps: true });
  else fs.mkdirSync(uploadsCopy);
  const verify = openForReading(target);
  try {
    const missing = missingUploads(verify, uploadsCopy);
    if (missing.length) throw new Error(`Uploads missing from the backup: ${missing.slice(0, 10).join(", ")}`);
  } finally {
    verify.close();
  }

  const manifest: Manifest = {
    created_at: at.toISOString(),
    source,
    database: {
      file: BACKUP_DB,
      bytes: fs.statSync(target).size,
      sha256: sha256File(target),
      integrity: check,
      counts,
    },
    uploads: folderSize(uploadsCopy),
  };
  fs.writeFileSync(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return { dir, manifest };
}

/** Removes all but the `keep` newest dated backup folders in `out`; returns the removed ones. */
export function pruneBackups(out: string, keep: number): string[] {
  if (!(keep > 0) || !fs.existsSync(out)) return [];
  const folders = fs
    .readdirSync(out)
    .filter((n) => FOLDER.test(n) && fs.existsSync(path.join(out, n, MANIFEST)))
    .sort();
  const old = folders.slice(0, Math.max(0, folders.length - keep));
  for (const n of old) fs.rmSync(path.join(out, n), { recursive: true, force: true });
  return old;
}

async function main() {
  const { values } = parseArgs({
    options: { out: { type: "string" }, keep: { type: "string" }, db: { type: "string" }, uploads: { type: "string" } },
  });
  const out = path.resolve(values.out ?? process.env.BACKUP_DIR ?? "backups");
  const { dir, manifest } = await backupDatabase({ out, dbFile: values.db, uploads: values.uploads });
  const rows = Object.values(manifest.database.counts).reduce((s, n) => s + n, 0);
  console.log(
    `Backup ${dir}: database ${manifest.database.bytes} bytes, ${rows} rows in ${Object.keys(manifest.database.counts).length} tables, integrity ok, counts match; ${manifest.uploads.files} uploads.`,
  );
  const removed = pruneBackups(out, Number(values.keep ?? process.env.BACKUP_KEEP ?? 0));
  if (removed.length) console.log(`Removed ${removed.length} older backup(s).`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error) => {
    console.error(`Backup failed: ${(error as Error).message}`);
    process.exit(1);
  });
}
