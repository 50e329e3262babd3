/**
 * Puts a backup back in place of the database, with the server stopped.
 *
 *   npm run restore -- backups/2026-11-21_143000     a folder made by `npm run backup` (or its app.sqlite)
 *   npm run restore -- some-file.sqlite              any SQLite copy of the database
 *   npm run restore -- --replica [URL]               the latest state of the Litestream replica
 *                                                    (default LITESTREAM_REPLICA_URL)
 *
 * Steps: the backup is verified (integrity_check, and its row counts against its manifest); the database is
 * refused if any process has it open (the server, Litestream: stop them first); the backup is copied next to the
 * database with SQLite's backup API and verified again (integrity_check, same row counts); the current database is
 * kept beside it as `<name>.before-restore-<time>` and the copy takes its place. The backup's uploads are copied
 * back where a file is missing (existing uploads stay). Start the server again afterwards.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { databasePath } from "@db/index";
import { uploadsDir } from "~/utils/config.server";
import {
  BACKUP_DB,
  BACKUP_UPLOADS,
  integrity,
  MANIFEST,
  missingUploads,
  openForReading,
  sameCounts,
  tableCounts,
  type Counts,
  type Manifest,
} from "./backup";
import { litestreamRestore } from "./litestream";

export class RestoreError extends Error {}

/** Refuses when another process has the database open: leaving WAL mode needs it to be the only connection. */
export function assertNotInUse(file: string): void {
  if (!fs.existsSync(file)) return;
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 0");
    db.pragma("journal_mode = DELETE");
    if (db.pragma("journal_mode", { simple: true }) !== "delete") throw new Error("busy");
  } catch {
    throw new RestoreError(
      `${file} is open in another process (the server or Litestream). Stop them first, then restore.`,
    );
  } finally {
    db.close();
  }
}

function readManifest(dir: string): Manifest | null {
  const file = path.join(dir, MANIFEST);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as Manifest) : null;
}

/** Checks a backup file (and its manifest, if any); returns its row counts. */
export function verifyBackup(file: string, manifest: Manifest | null): Counts {
  if (!fs.existsSync(file)) throw new RestoreError(`No backup at ${file}`);
  const db = openForReading(file);
  try {
    let check: string;
    let counts: Counts;
    try {
      check = integrity(db);
      counts = check === "ok" ? tableCounts(db) : {};
    } catch (e) {
      // SQLite may refuse to read a damaged file at all rather than list what is wrong with it.
      throw new RestoreError(`The backup ${file} is damaged: ${(e as Error).message}`);
    }
    if (check !== "ok") throw new RestoreError(`The backup ${file} failed integrity_check: ${check}`);
    if (manifest) {
      const differ = sameCounts(manifest.database.counts, counts);
      if (differ.length) throw new RestoreError(`The backup does not match its manifest: ${differ.join(", ")}`);
    }
    return counts;
  } finally {
    db.close();
  }
}

export type RestoreOptions = { from: string; dbFile?: string; uploads?: string; at?: Date };
export type RestoreResult = { dbFile: string; previous: string | null; counts: Counts; uploadsRestored: number };

/** Restores a backup folder or SQLite file in place of the database (see the top of this file). */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const dbFile = path.resolve(options.dbFile ?? databasePath());
  let from = path.resolve(options.from);
  let folder: string | null = null;
  if (fs.existsSync(from) && fs.statSync(from).isDirectory()) {
    folder = from;
    from = path.join(from, BACKUP_DB);
  } else if (path.basename(from) === BACKUP_DB && fs.existsSync(path.join(path.dirname(from), MANIFEST))) {
    folder = path.dirname(from);
  }
  const counts = verifyBackup(from, folder ? readManifest(folder) : null);
  assertNotInUse(dbFile);

  // The copy is made beside the database (same file system, so the swap is one rename) and checked again.
  fs.mkdirSync(path.dirname(dbFile), { recursive: true });
  const staging = `${dbFile}.restoring`;
  for (const f of [staging, `${staging}-wal`, `${staging}-shm`, `${staging}-journal`]) fs.rmSync(f, { force: true });
  const src = openForReading(from);
  try {
    await src.backup(staging);
  } finally {
    src.close();
  }
  const copy = new Database(staging);
  try {
    copy.pragma("journal_mode = DELETE");
    const check = integrity(copy);
    if (check !== "ok") throw new RestoreError(`The restored copy failed integrity_check: ${check}`);
    const differ = sameCounts(counts, tableCounts(copy));
    if (differ.length) throw new RestoreError(`The restored copy's row counts differ: ${differ.join(", ")}`);
  } finally {
    copy.close();
  }

  assertNotInUse(dbFile); // again, right before the swap
  let previous: string | null = null;
  if (fs.existsSync(dbFile)) {
    previous = `${dbFile}.before-restore-${(options.at ?? new Date()).toISOString().replace(/[:.]/g, "-")}`;
    fs.renameSync(dbFile, previous);
  }
  for (const f of [`${dbFile}-wal`, `${dbFile}-shm`, `${dbFile}-journal`]) fs.rmSync(f, { force: true });
  fs.renameSync(staging, dbFile);

  let uploadsRestored = 0;
  const savedUploads = folder ? path.join(folder, BACKUP_UPLOADS) : null;
  if (savedUploads && fs.existsSync(savedUploads)) {
    const target = path.resolve(options.uploads ?? uploadsDir());
    for (const entry of fs.readdirSync(savedUploads, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const rel = path.relative(savedUploads, path.join(entry.parentPath, entry.name));
      const dest = path.join(target, rel);
      if (fs.existsSync(dest)) continue;
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.copyFileSync(path.join(savedUploads, rel), dest);
      uploadsRestored++;
    }
    const db = openForReading(dbFile);
    try {
      const missing = missingUploads(db, target);
      if (missing.length)
        console.warn(`Uploads the database names but the folder lacks: ${missing.slice(0, 10).join(", ")}`);
    } finally {
      db.close();
    }
  }
  return { dbFile, previous, counts, uploadsRestored };
}

/** Restores the latest state of a Litestream replica (litestream restore into a temporary file, then as above). */
export async function restoreFromReplica(options: Omit<RestoreOptions, "from"> & { url?: string }) {
  const url = options.url ?? process.env.LITESTREAM_REPLICA_URL;
  if (!url) throw new RestoreError("Give the replica URL (--replica URL) or set LITESTREAM_REPLICA_URL.");
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "replica-"));
  try {
    const file = path.join(tmp, BACKUP_DB);
    await litestreamRestore(url, file);
    return await restoreBackup({ ...options, from: file });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { replica: { type: "boolean" }, db: { type: "string" }, uploads: { type: "string" } },
  });
  const result = values.replica
    ? await restoreFromReplica({ url: positionals[0], dbFile: values.db, uploads: values.uploads })
    : positionals[0]
      ? await restoreBackup({ from: positionals[0], dbFile: values.db, uploads: values.uploads })
      : null;
  if (!result) throw new RestoreError("Usage: npm run restore -- BACKUP_FOLDER_OR_FILE | --replica [URL]");
  const rows = Object.values(result.counts).reduce((s, n) => s + n, 0);
  console.log(`Restored ${result.dbFile}: integrity ok, ${rows} rows in ${Object.keys(result.counts).length} tables.`);
  if (result.previous) console.log(`The database it replaced is kept as ${result.previous}.`);
  if (result.uploadsRestored) console.log(`${result.uploadsRestored} upload(s) put back.`);
  console.log("Start the server again.");
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error) => {
    console.error(`Restore failed: ${(error as Error).message}`);
    process.exit(1);
  });
}
