/**
 * The live (not deleted) row count of a big table, kept by triggers (migration
 * 0009) in every writer's transaction: exact, and one primary-key read instead
 * of a count over every row. Head office's lists show it as their total.
 */
import { count, eq, sql, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { db, schema } from "@db/index";

export type CountedTable = "preregistrations" | "registrations";

export function liveCount(table: CountedTable): number {
  return (
    db.select({ n: schema.rowCounts.n }).from(schema.rowCounts).where(eq(schema.rowCounts.key, table)).get()?.n ?? 0
  );
}

/**
 * How many rows of `table` meet `where` (with `joins`, the same select joined), counted no further than
 * `limit` when it is given: `select count(*) from (select 1 … limit n)`, so a list's filtered count stops
 * early on a common search (app/utils/datatable.server.ts, COUNT_CAP).
 */
export function countUpTo(
  table: SQLiteTable,
  where: SQL | undefined,
  limit?: number,
  joins?: [SQLiteTable, SQL][],
): number {
  let rows = db
    .select({ one: sql`1` })
    .from(table)
    .$dynamic();
  for (const [other, on] of joins ?? []) rows = rows.innerJoin(other, on);
  rows = rows.where(where);
  const matches = (limit === undefined ? rows : rows.limit(limit)).as("matches");
  return db.select({ n: count() }).from(matches).get()?.n ?? 0;
}
