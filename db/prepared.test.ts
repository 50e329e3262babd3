/**
 * Queries built once per connection: each answers with the values it is given, on the connection it was asked
 * through (a second database has its own), inside a transaction as outside; an insert prepared for one set of
 * columns stores and returns what drizzle's own insert does.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { afterAll, describe, expect, it } from "vitest";
import { db, openDatabase, schema, type Executor } from "@db/index";
import { insertReturning, prepared } from "./prepared";

const { settings: S, smsMessages: M } = schema;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prepared-"));
const other = openDatabase(path.join(dir, "other.sqlite"));
afterAll(() => {
  other.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const settingByKey = prepared((q) =>
  q
    .select()
    .from(S)
    .where(eq(S.key, sql.placeholder("key")))
    .prepare(),
);
const value = (exec: Executor, key: string) => settingByKey(exec).get({ key })?.value;

describe("a prepared query", () => {
  it("answers with the values it is given, each time", () => {
    db.insert(S).values({ key: "prepared-a", value: "A" }).run();
    db.insert(S).values({ key: "prepared-b", value: "B" }).run();
    expect(value(db, "prepared-a")).toBe("A");
    expect(value(db, "prepared-b")).toBe("B");
    expect(value(db, "prepared-none")).toBeUndefined();
    expect(settingByKey(db)).toBe(settingByKey(db));
  });

  it("runs on the connection it is asked through: another database answers from its own rows", () => {
    db.insert(S).values({ key: "prepared-where", value: "shared" }).run();
    other.insert(S).values({ key: "prepared-where", value: "other" }).run();
    expect(value(other, "prepared-where")).toBe("other");
    expect(value(db, "prepared-where")).toBe("shared");
    expect(settingByKey(other)).not.toBe(settingByKey(db));
  });

  it("inside a transaction is the database's own query and sees the transaction's writes", () => {
    expect(() =>
      db.transaction((tx) => {
        tx.insert(S).values({ key: "prepared-tx", value: "in" }).run();
        expect(settingByKey(tx)).toBe(settingByKey(db));
        expect(value(tx, "prepared-tx")).toBe("in");
        tx.rollback();
      }),
    ).toThrow(/Rollback/);
    expect(value(db, "prepared-tx")).toBeUndefined();
  });
});

describe("insertReturning", () => {
  const insertMessage = insertReturning(M);
  const row = {
    to: "9800000001",
    text: "Your code",
    purpose: "otp" as const,
    status: "queued" as const,
    provider: "outbox",
    valid_until: "2026-01-01T00:10:00.000Z",
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
  };

  it("stores and returns the row drizzle's own insert does", () => {
    const ours = insertMessage(db, { ...row, subject_id: 7 });
    const theirs = db
      .insert(M)
      .values({ ...row, subject_id: 7 })
      .returning()
      .get();
    expect(ours).toEqual({ ...theirs, id: ours.id });
    expect(db.select().from(M).where(eq(M.id, ours.id)).get()).toEqual(ours);
  });

  it("a column left out takes the table's default; each set of columns is its own statement", () => {
    const without = insertMessage(db, row);
    expect(without.subject_id).toBeNull();
    expect(without.attempts).toBe(0);
    const given = insertMessage(db, { ...row, attempts: 2, subject_id: 9 });
    expect([given.attempts, given.subject_id]).toEqual([2, 9]);
    const again = insertMessage(db, row);
    expect([again.attempts, again.subject_id]).toEqual([0, null]);
    expect(new Set([without.id, given.id, again.id]).size).toBe(3);
  });

  it("refuses a table whose columns compute a default in JavaScript", () => {
    let n = 0;
    const counted = sqliteTable("counted", {
      id: integer("id").primaryKey(),
      label: text("label").$defaultFn(() => `label ${++n}`),
    });
    expect(() => insertReturning(counted)).toThrow(/label compute their default in JavaScript/);
  });
});
