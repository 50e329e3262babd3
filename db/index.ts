/**
 * The one SQLite connection of this process: WAL, foreign keys, synchronous FULL,
 * a busy timeout and a 16 MB page cache, with each statement compiled once and
 * the committed migrations applied on first use.
 */
import { isMainThread } from "node:worker_threads";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import fs from "node:fs";
import path from "node:path";
import { entryReference } from "./reference";
import * as schema from "./schema";

export type DB = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/** An open transaction of the shared connection. */
export type Tx = Parameters<Parameters<DB["transaction"]>[0]>[0];

/** The one executor type of the models: the database or an open transaction on it. */
export type Executor = BetterSQLite3Database<typeof schema> | Tx;

export function databasePath(): string {
  const url = process.env.DATABASE_URL ?? "file:data/app.sqlite";
  return path.resolve(url.replace(/^file:/, ""));
}

/** The page cache, SQLITE_CACHE_MB (16 by default; docs/operations.md, "Memory"), in KiB. */
function pageCacheKiB(): number {
  const mb = Number(process.env.SQLITE_CACHE_MB ?? 16);
  return Math.round((Number.isFinite(mb) && mb >= 1 ? mb : 16) * 1024);
}

/**
 * Files only the service reads: every process that opens the database (the server, the seed, backup,
 * restore, create-admin) creates its files 0600 and folders 0700 (the database and its WAL, uploads,
 * backups, the session secret). A database folder and file made before are narrowed when opened.
 */
export const PRIVATE_UMASK = 0o077;
// A worker thread shares its process's umask (and may not set it).
if (isMainThread) process.umask(PRIVATE_UMASK);

function narrow(target: string, mode: number) {
  try {
    const now = fs.statSync(target).mode;
    // A shared folder (sticky, as /tmp) is left alone: a database put straight into it must not lock others out.
    if (now & 0o1000) return;
    if ((now & 0o777) !== mode) fs.chmodSync(target, mode);
  } catch {
    // Not there yet, or not ours to change (a read-only mount): SQLite reports what matters.
  }
}

export function openDatabase(file = databasePath(), { runMigrations = true } = {}): DB {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  narrow(path.dirname(file), 0o700);
  const sqlite = new Database(file);
  for (const f of [file, `${file}-wal`, `${file}-shm`]) narrow(f, 0o600);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma(`cache_size = -${pageCacheKiB()}`);
  // A pre-registration's reference is set by the database on insert (migration 0014), from its slug.
  sqlite.function("entry_reference", { deterministic: true }, (slug) => entryReference(String(slug)));
  const db = drizzle(statementCache(sqlite), { schema }) as unknown as DB;
  db.$client = sqlite;
  if (runMigrations) migrate(db, { migrationsFolder: migrationsFolder() });
  return db;
}

/** How many distinct statements the connection keeps compiled. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The connection as drizzle sees it, with each statement compiled once: drizzle
 * asks SQLite to compile a query's text on every call, which cost more than
 * running most of them. A statement taken from the cache is set back to return
 * objects (drizzle switches a statement to arrays with `raw()` where it wants
 * them), as a freshly compiled one would. The cache is emptied when full, so
 * texts that vary (an `in (…)` list of any length) cannot grow it without bound.
 */
function statementCache(sqlite: Database.Database): Database.Database {
  const compiled = new Map<string, Database.Statement>();
  const prepare = (source: string) => {
    let statement = compiled.get(source);
    if (!statement) {
      if (compiled.size >= STATEMENT_CACHE_SIZE) compiled.clear();
      statement = sqlite.prepare(source);
      compiled.set(source, statement);
    } else if (statement.reader) {
      statement.raw(false);
    }
    return statement;
  };
  return new Proxy(sqlite, {
    get(target, prop) {
      if (prop === "prepare") return prepare;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export function migrationsFolder(): string {
  return path.resolve(process.env.MIGRATIONS_DIR ?? "drizzle");
}

const globalForDb = globalThis as unknown as { __db?: DB; __dbFile?: string };

/** The shared connection, opened (and migrated) on first use. */
export function getDb(): DB {
  const file = databasePath();
  if (!globalForDb.__db || globalForDb.__dbFile !== file) {
    globalForDb.__db?.$client.close();
    globalForDb.__db = openDatabase(file);
    globalForDb.__dbFile = file;
  }
  return globalForDb.__db;
}

export const db: DB = new Proxy({} as DB, {
  get(_t, prop) {
    const real = getDb() as unknown as Record<string | symbol, unknown>;
    const value = real[prop];
    return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(real) : value;
  },
});

export { schema };
