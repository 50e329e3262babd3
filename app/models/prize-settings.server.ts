/**
 * The fallback (base) tables of the prize draw, held in settings as JSON
 * `[{ amount, weight }]`:
 * - `second_thrill_base_table`: what a pre-registration gets when no pool pays
 *   (default 4000, 5000, 6000, 7000, equally likely; never empty);
 * - `third_thrill_base_table`: what a registration gets when no pool pays
 *   (default empty: no coupon).
 */
import { eq } from "drizzle-orm";
import type Database from "better-sqlite3";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { db, schema } from "@db/index";
import { nowIso } from "~/utils/time";

/** The database or an open transaction on it. */
export type Executor = BaseSQLiteDatabase<"sync", Database.RunResult, typeof schema>;

import { BASE_TABLE_KEYS, DEFAULT_BASE_TABLES, type BaseTableKind, type BaseTableRow } from "./base-tables";

export { BASE_TABLE_KEYS, DEFAULT_BASE_TABLES, type BaseTableKind, type BaseTableRow };

export const BASE_TABLE_MESSAGES = {
  amount: "Each amount must be a whole number of rupees above 0.",
  weight: "Each weight must be a number above 0.",
  emptySecond: "The second-thrill base table needs at least one row.",
  notAList: "The base table must be a list of amounts with weights.",
} as const;

const toNumber = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v);

export const baseTableRowSchema = z.object({
  amount: z.preprocess(
    toNumber,
    z.number({ error: BASE_TABLE_MESSAGES.amount }).refine((n) => Number.isSafeInteger(n) && n > 0, {
      error: BASE_TABLE_MESSAGES.amount,
    }),
  ),
  weight: z.preprocess(
    toNumber,
    z.number({ error: BASE_TABLE_MESSAGES.weight }).refine((n) => Number.isFinite(n) && n > 0, {
      error: BASE_TABLE_MESSAGES.weight,
    }),
  ),
});

export function baseTableSchema(kind: BaseTableKind) {
  const rows = z.array(baseTableRowSchema, { error: BASE_TABLE_MESSAGES.notAList });
  return kind === "second" ? rows.min(1, { error: BASE_TABLE_MESSAGES.emptySecond }) : rows;
}

export class BaseTableError extends Error {
  readonly code = "invalid_base_table" as const;
  constructor(
    message: string,
    readonly fieldErrors: Record<string, string[]>,
  ) {
    super(message);
    this.name = "BaseTableError";
  }
}

/** The stored table, or the default when it is missing or unreadable. */
export function readBaseTable(exec: Executor, kind: BaseTableKind): BaseTableRow[] {
  const row = exec
    .select({ value: schema.settings.value })
    .from(schema.settings)
    .where(eq(schema.settings.key, BASE_TABLE_KEYS[kind]))
    .get();
  if (row) {
    try {
      const parsed = baseTableSchema(kind).safeParse(JSON.parse(row.value));
      if (parsed.success) return parsed.data;
    } catch {
      // unreadable JSON: fall through to the default
    }
  }
  return DEFAULT_BASE_TABLES[kind].map((r) => ({ ...r }));
}

export function getBaseTable(kind: BaseTableKind): BaseTableRow[] {
  return readBaseTable(db, kind);
}

/** Validates and stores a base table; throws BaseTableError with per-row field errors ("rows.0.amount"). */
export function setBaseTable(kind: BaseTableKind, rows: unknown): BaseTableRow[] {
  const parsed = baseTableSchema(kind).safeParse(rows);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const key = ["rows", ...issue.path].join(".");
      (fieldErrors[key] ??= []).push(issue.message);
    }
    throw new BaseTableError(parsed.error.issues[0]?.message ?? BASE_TABLE_MESSAGES.notAList, fieldErrors);
  }
  const value = JSON.stringify(parsed.data.map((r) => ({ amount: r.amount, weight: r.weight })));
  db.insert(schema.settings)
    .values({ key: BASE_TABLE_KEYS[kind], value, updated_at: nowIso() })
    .onConflictDoUpdate({ target: schema.settings.key, set: { value, updated_at: nowIso() } })
    .run();
  return parsed.data;
}

/** The weighted mean amount of a table (0 for an empty one). */
export function baseTableMean(rows: readonly BaseTableRow[]): number {
  const total = rows.reduce((s, r) => s + r.weight, 0);
  return total > 0 ? rows.reduce((s, r) => s + r.amount * r.weight, 0) / total : 0;
}
