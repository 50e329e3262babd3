/**
 * The fallback (base) tables of the prize draw, held in settings as JSON
 * `[{ amount, weight }]`:
 * - `second_thrill_base_table`: what a pre-registration gets when no pool pays
 *   (default 4000, 5000, 6000, 7000, equally likely; never empty);
 * - `third_thrill_base_table`: what a registration gets when no pool pays
 *   (default empty: no coupon).
 */
import { eq, sql } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import { prepared } from "@db/prepared";
import { audit, diff, type Actor } from "~/models/audit.server";
import { fail, type FieldErrors, type Result } from "~/utils/failure";
import { transact } from "~/models/transaction.server";
import { BASE_TABLE_MESSAGES, baseTableSchema } from "~/schemas/base-table";
import { nowIso } from "~/utils/time";
import { BASE_TABLE_KEYS, DEFAULT_BASE_TABLES, type BaseTableKind, type BaseTableRow } from "~/utils/base-tables";

export { BASE_TABLE_KEYS, DEFAULT_BASE_TABLES, type BaseTableKind, type BaseTableRow };

/** The stored table, or the default when it is missing or unreadable. */
const settingValue = prepared((q) =>
  q
    .select({ value: schema.settings.value })
    .from(schema.settings)
    .where(eq(schema.settings.key, sql.placeholder("key")))
    .prepare(),
);

export function readBaseTable(exec: Executor, kind: BaseTableKind): BaseTableRow[] {
  const row = settingValue(exec).get({ key: BASE_TABLE_KEYS[kind] });
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

/**
 * Validates and stores a base table, with its audit row. Invalid rows are a
 * Failure with per-row field errors ("rows.0.amount", by the row's index in
 * `rows`).
 */
export function setBaseTable(actor: Actor, kind: BaseTableKind, rows: unknown): Result<{ rows: BaseTableRow[] }> {
  const parsed = baseTableSchema(kind).safeParse(rows);
  if (!parsed.success) {
    const errors: FieldErrors = {};
    for (const issue of parsed.error.issues) {
      const key = ["rows", ...issue.path.map(String)].join(".");
      (errors[key] ??= []).push(issue.message);
    }
    return fail.invalid(errors, parsed.error.issues[0]?.message ?? BASE_TABLE_MESSAGES.notAList);
  }
  const table = parsed.data.map((r) => ({ amount: r.amount, weight: r.weight }));
  const key = BASE_TABLE_KEYS[kind];
  const value = JSON.stringify(table);
  return transact((tx) => {
    const before = readBaseTable(tx, kind);
    tx.insert(schema.settings)
      .values({ key, value, updated_at: nowIso() })
      .onConflictDoUpdate({ target: schema.settings.key, set: { value, updated_at: nowIso() } })
      .run();
    audit(tx, actor, {
      action: "setting.update",
      entityType: "setting",
      entityId: key,
      changes: diff({ [key]: before }, { [key]: table }),
    });
    return { ok: true as const, rows: table };
  });
}

/** The weighted mean amount of a table (0 for an empty one). */
export function baseTableMean(rows: readonly BaseTableRow[]): number {
  const total = rows.reduce((s, r) => s + r.weight, 0);
  return total > 0 ? rows.reduce((s, r) => s + r.amount * r.weight, 0) / total : 0;
}
