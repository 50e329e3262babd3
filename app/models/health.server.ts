/** What /healthz reports about the database: it answers, the SMS waiting to go, and the code-SMS ceilings. */
import { count, eq } from "drizzle-orm";
import { db, schema } from "@db/index";
import { EVERY_SENDER, usage } from "~/utils/rate-limit.server";

/** The SMS stored as queued (not yet sent or failed). Throws when the database does not answer. */
export function queuedSmsCount(): number {
  const M = schema.smsMessages;
  return db.select({ n: count() }).from(M).where(eq(M.status, "queued")).get()?.n ?? 0;
}

/** At this share of an hour's ceiling of code SMS, /healthz says "near". */
export const CEILING_NEAR = 0.8;

export type Ceiling = { used: number; perHour: number; state: "ok" | "near" | "reached" };

function ceilingOf(name: "code-sms" | "public-code-sms"): Ceiling {
  const { used, allowed } = usage(name, EVERY_SENDER);
  const state = used >= allowed ? "reached" : used >= allowed * CEILING_NEAR ? "near" : "ok";
  return { used, perHour: allowed, state };
}

/**
 * The hour's code SMS against their two ceilings, each "ok", "near" (80% used) or "reached": every
 * sender's together (CODE_SMS_PER_HOUR: past it the counters' codes and staff resets wait too) and the
 * public forms' share (CODE_SMS_PER_HOUR less CODE_SMS_STAFF_RESERVE: past it visitors are told to try
 * again later, the counters still send). Each one not "ok" is an alert line naming it.
 */
export function codeSmsCeilings(): { codeSms: Ceiling; publicCodeSms: Ceiling; alerts: string[] } {
  const codeSms = ceilingOf("code-sms");
  const publicCodeSms = ceilingOf("public-code-sms");
  const alerts = [
    publicCodeSms.state !== "ok"
      ? `public forms' code SMS ceiling ${publicCodeSms.state}: ${publicCodeSms.used} of ${publicCodeSms.perHour} this hour`
      : null,
    codeSms.state !== "ok"
      ? `code SMS ceiling ${codeSms.state}: ${codeSms.used} of ${codeSms.perHour} this hour`
      : null,
  ].filter((line): line is string => line !== null);
  return { codeSms, publicCodeSms, alerts };
}
