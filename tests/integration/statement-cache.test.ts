/**
 * The connection drizzle is given keeps each compiled statement by its text: the same text is compiled once,
 * a statement turned to arrays by one query answers objects to the next, and texts past the bound are
 * compiled again rather than kept without end.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, schema } from "@db/index";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statements-"));
const d = openDatabase(path.join(dir, "app.sqlite"));
afterAll(() => {
  d.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Counts what the real connection is asked to compile while `fn` runs. */
function compiles(fn: () => void): string[] {
  const client = d.$client;
  const prepare = client.prepare;
  const seen: string[] = [];
  client.prepare = function (this: typeof client, source: string) {
    seen.push(source);
    return prepare.call(client, source);
  } as typeof client.prepare;
  try {
    fn();
  } finally {
    client.prepare = prepare;
  }
  return seen;
}

describe("compiled statements", () => {
  it("a query's text is compiled once and answers again with new values", () => {
    const byKey = (key: string) =>
      d
        .select()
        .from(schema.settings)
        .where(sql`${schema.settings.key} = ${key}`)
        .get();
    d.insert(schema.settings).values({ key: "cache-a", value: "1" }).run();
    d.insert(schema.settings).values({ key: "cache-b", value: "2" }).run();
    byKey("warm");
    const seen = compiles(() => {
      expect(byKey("cache-a")?.value).toBe("1");
      expect(byKey("cache-b")?.value).toBe("2");
      expect(byKey("cache-none")).toBeUndefined();
    });
    expect(seen).toEqual([]);
  });

  it("a statement turned to arrays by one query answers objects to the next", () => {
    const query = d.select({ key: schema.settings.key }).from(schema.settings).orderBy(schema.settings.key);
    const text = query.toSQL().sql;
    expect(query.all()[0]).toEqual({ key: "cache-a" }); // drizzle reads the row as an array (raw) and maps it
    const plain = d.all<{ key: string }>(sql.raw(text)); // the same text, read as objects
    expect(plain[0]).toEqual({ key: "cache-a" });
    expect(query.all()[0]).toEqual({ key: "cache-a" });
  });

  it("texts past the bound are compiled again, not kept without end", () => {
    const distinct = (n: number) => d.all(sql.raw(`select ${n} as n`));
    const first = compiles(() => {
      for (let n = 0; n < 600; n++) distinct(n);
    });
    expect(first).toHaveLength(600);
    // The early texts were dropped when the cache filled, so they are compiled anew.
    const again = compiles(() => distinct(0));
    expect(again).toEqual(["select 0 as n"]);
  });
});
