// Migration 0015 moves a typed list out of its broadcast's row into sms_broadcast_mobiles: a database
// with broadcasts sent before it keeps every list, counted, and the broadcasts' rows lose the column.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { afterAll, describe, expect, it } from "vitest";
import { migrationsFolder, openDatabase } from "@db/index";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bm-migration-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The migrations folder as it was before `tag`. */
function folderBefore(tag: string): string {
  const folder = path.join(dir, "drizzle");
  fs.cpSync(migrationsFolder(), folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

describe("migration 0015_broadcast_mobiles", () => {
  it("moves each typed list to its own row with its count, and leaves the other broadcasts without one", () => {
    const db = openDatabase(path.join(dir, "old.sqlite"), { runMigrations: false });
    try {
      migrate(db, { migrationsFolder: folderBefore("0015_broadcast_mobiles") });
      const insert = db.$client.prepare(
        "insert into sms_broadcasts (type, text, mobiles, total, created_at) values (?, 'Hi', ?, ?, '2026-01-01T00:00:00.000Z')",
      );
      const typed = Number(insert.run("MOBILE", JSON.stringify(["9841000001", "9841000002"]), 2).lastInsertRowid);
      const everyone = Number(insert.run("ALL", "[]", 0).lastInsertRowid);

      migrate(db, { migrationsFolder: migrationsFolder() });
      expect(db.$client.prepare("select * from sms_broadcast_mobiles order by broadcast_id").all()).toEqual([
        { broadcast_id: typed, mobiles: '["9841000001","9841000002"]', count: 2 },
      ]);
      const columns = (db.$client.pragma("table_info(sms_broadcasts)") as { name: string }[]).map((c) => c.name);
      expect(columns).not.toContain("mobiles");
      expect(db.$client.prepare("select id from sms_broadcasts order by id").all()).toEqual([
        { id: typed },
        { id: everyone },
      ]);
    } finally {
      db.$client.close();
    }
  });
});
