/**
 * The live (not deleted) row count of a big table, kept by triggers (migration
 * 0009) in every writer's transaction: exact, and one primary-key read instead
 * of a count over every row. Head office's lists show it as their total.
 */
import { eq } from "drizzle-orm";
import { db, schema } from "@db/index";

export type CountedTable = "preregistrations" | "registrations";

export function liveCount(table: CountedTable): number {
  return (
    db.select({ n: schema.rowCounts.n }).from(schema.rowCounts).where(eq(schema.rowCounts.key, table)).get()?.n ?? 0
  );
}
