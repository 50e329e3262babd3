/**
 * The running day's house seed is stored sealed under a key kept beside the session secret, outside
 * the database: a same-day backup (npm run backup) and the Litestream replica hold the sealed value
 * only, never the seed, in hex or in bytes, while the key (outside both) opens it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { backupDatabase } from "../../scripts/backup";
import { litestreamRestore, startReplication } from "../../scripts/litestream";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fair-seal-"));
const file = path.join(dir, "data", "app.sqlite");
fs.mkdirSync(path.dirname(file));
fs.copyFileSync(path.join(process.env.TEST_TMP_DIR!, "base.sqlite"), file);
process.env.DATABASE_URL = `file:${file}`;
const children: { kill: (signal: NodeJS.Signals) => unknown }[] = [];
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

const { db, schema } = await import("@db/index");
const { commitAhead, houseSeedOf } = await import("~/models/fair-draw.server");
const { kathmanduDate } = await import("~/utils/time");
const { unseal } = await import("~/utils/seal.server");
const { eq } = await import("drizzle-orm");

const today = kathmanduDate();
commitAhead(db);
const seed = houseSeedOf(db, today);
const sealed = db.select().from(schema.fairDays).where(eq(schema.fairDays.date, today)).get()!.house_sealed;

/** Every file under `root` as bytes, and whether any holds the seed in hex or in bytes. */
function holdsSeed(root: string): string[] {
  const raw = Buffer.from(seed, "hex");
  const found: string[] = [];
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const bytes = fs.readFileSync(full);
    if (bytes.includes(raw) || bytes.includes(Buffer.from(seed)) || bytes.includes(Buffer.from(seed.toUpperCase())))
      found.push(full);
  }
  return found;
}

describe("the running day's house seed", () => {
  it("is sealed in the database, and the key outside it opens it", () => {
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    expect(sealed).toMatch(/^v1:/);
    expect(holdsSeed(path.dirname(file))).toEqual([]);
    expect(unseal(sealed, today).toString("hex")).toBe(seed);
    expect(() => unseal(sealed, "2000-01-01")).toThrow(); // bound to its day
  });

  it("is not in a same-day backup", async () => {
    const { dir: out } = await backupDatabase({ dbFile: file, out: path.join(dir, "backups") });
    const copy = new Database(path.join(out, "app.sqlite"), { readonly: true });
    expect(copy.prepare("select house_sealed from fair_days where date = ?").pluck().get(today)).toBe(sealed);
    copy.close();
    expect(holdsSeed(out)).toEqual([]);
  });

  it("is not in the Litestream replica", async () => {
    const replica = path.join(dir, "replica");
    const url = `file://${replica}`;
    const wal = new Database(file);
    wal.pragma("journal_mode = WAL");
    wal.close();
    const litestream = startReplication(
      { ...process.env, DATABASE_URL: `file:${file}`, LITESTREAM_REPLICA_URL: url, LITESTREAM_DB_PATH: file },
      { quiet: true },
    );
    children.push(litestream);
    const peek = path.join(dir, "restored.sqlite");
    const end = Date.now() + 60_000;
    let held: string | undefined;
    while (!held && Date.now() < end) {
      fs.rmSync(peek, { force: true });
      await litestreamRestore(url, peek).catch(() => undefined);
      if (fs.existsSync(peek)) {
        const copy = new Database(peek, { readonly: true });
        held = copy.prepare("select house_sealed from fair_days where date = ?").pluck().get(today) as string;
        copy.close();
      }
      if (!held) await new Promise((resolve) => setTimeout(resolve, 300));
    }
    litestream.kill("SIGKILL");
    expect(held).toBe(sealed);
    expect(holdsSeed(replica)).toEqual([]);
    expect(holdsSeed(path.dirname(peek)).filter((f) => f.startsWith(replica) || f === peek)).toEqual([]);
  });
});
