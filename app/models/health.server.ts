/** What /healthz reports about the database: it answers, the SMS waiting to go, and the code-SMS ceiling. */
import { count, eq } from "drizzle-orm";
import { db, schema } from "@db/index";
import { EVERY_SENDER, usage } from "~/utils/rate-limit.server";

/** The SMS stored as queued (not yet sent or failed). Throws when the database does not answer. */
export function queuedSmsCount(): number {
  const M = schema.smsMessages;
  return db.select({ n: count() }).from(M).where(eq(M.status, "queued")).get()?.n ?? 0;
}

/** At this share of the hour's ceiling of code SMS, /healthz says "near". */
export const CEILING_NEAR = 0.8;

/**
 * The hour's code SMS against their ceiling (CODE_SMS_PER_HOUR): "ok", "near" (80% used) or
 * "reached" (visitors are told to try again later: an alert for the operator).
 */
export function codeSmsCeiling(): { used: number; perHour: number; state: "ok" | "near" | "reached" } {
  const { used, allowed } = usage("code-sms", EVERY_SENDER);
  const state = used >= allowed ? "reached" : used >= allowed * CEILING_NEAR ? "near" : "ok";
  return { used, perHour: allowed, state };
}
