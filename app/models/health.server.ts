/** What /healthz reports about the database: it answers, and the SMS waiting to go. */
import { count, eq } from "drizzle-orm";
import { db, schema } from "@db/index";

/** The SMS stored as queued (not yet sent or failed). Throws when the database does not answer. */
export function queuedSmsCount(): number {
  const M = schema.smsMessages;
  return db.select({ n: count() }).from(M).where(eq(M.status, "queued")).get()?.n ?? 0;
}
