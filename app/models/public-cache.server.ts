/**
 * What the public pages read on every request (settings, branches, bike
 * models, videos, the day's prize headline) is read once and kept in memory
 * until it changes. Triggers (migration 0007) bump one version row on every
 * change of those tables, by any writer in any process; each cached read
 * compares that version (one primary-key lookup) and reloads when it moved, so
 * a change shows on the next request everywhere. Only results that are the
 * same for every visitor belong here.
 */
import type Database from "better-sqlite3";
import { getDb } from "@db/index";

type Entry = { version: number; value: unknown };

let client: Database.Database | null = null;
let versionStatement: Database.Statement<[], { version: number }> | null = null;
const entries = new Map<string, Entry>();

/** The current version of the public data (0 before the migration's row exists). */
export function publicVersion(): number {
  const db = getDb().$client;
  if (db !== client) {
    // A new connection (tests switch databases): forget what was read through the old one.
    client = db;
    versionStatement = db.prepare<[], { version: number }>("select version from cache_versions where key = 'public'");
    entries.clear();
  }
  return versionStatement!.get()?.version ?? 0;
}

/** The value of `load()`, computed once per version of the public data (and per `key`). */
export function cachedPublic<T>(key: string, load: () => T): T {
  const version = publicVersion();
  const hit = entries.get(key);
  if (hit && hit.version === version) return hit.value as T;
  const value = freeze(load());
  entries.set(key, { version, value });
  return value;
}

/** Shared between requests, so never changed by one: frozen two levels deep (the list and its rows). */
function freeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) if (v && typeof v === "object") Object.freeze(v);
    Object.freeze(value);
  }
  return value;
}
