/**
 * One-time codes sent by SMS: pre-registration phone verification, continuing
 * a pre-registration from another browser, purchase confirmation (registration)
 * and password reset.
 *
 * Rules: 6 digits from a cryptographic source; valid 10 minutes; at most 5 wrong
 * tries per code, then it is dead and a new one must be sent; a new code for the
 * same purpose and subject only 60 seconds after the last one; at most 5 codes
 * per phone per hour. Only the latest code of a subject counts. Entry codes are
 * kept readable for staff screens; password-reset and access codes only as a hash.
 */
import { and, asc, desc, eq, gt, sql } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import { insertReturning, prepared } from "@db/prepared";
import { randomDigits, safeEqual, sha256 } from "~/utils/crypto.server";
import { normalizePhone } from "~/utils/phone";
import { EVERY_SENDER, take } from "~/utils/rate-limit.server";
import { now } from "~/utils/time";
import { queueMessage, type SmsPurpose } from "./sms.server";

const { oneTimeCodes } = schema;

export type CodePurpose = (typeof oneTimeCodes.purpose.enumValues)[number];

export const OTP_RULES = {
  digits: 6,
  validSeconds: 10 * 60,
  maxAttempts: 5,
  resendAfterSeconds: 60,
  maxSendsPerHour: 5,
} as const;

const HOUR_MS = 60 * 60 * 1000;

/** Codes no staff screen shows: kept only as a hash. */
const HASH_ONLY: readonly CodePurpose[] = ["password_reset", "preregistration_access"];

type CodeRow = typeof oneTimeCodes.$inferSelect;

function hashCode(purpose: CodePurpose, subjectId: number, code: string): string {
  return sha256(`${purpose}:${subjectId}:${code}`);
}

function latestRow(q: Executor, purpose: CodePurpose, subjectId: number): CodeRow | undefined {
  return latestQuery(q).get({ purpose, subjectId });
}

const latestQuery = prepared((q) =>
  q
    .select()
    .from(oneTimeCodes)
    .where(
      and(
        eq(oneTimeCodes.purpose, sql.placeholder("purpose")),
        eq(oneTimeCodes.subject_id, sql.placeholder("subjectId")),
      ),
    )
    .orderBy(desc(oneTimeCodes.id))
    .limit(1)
    .prepare(),
);

/** The times of a phone's codes since `since`, oldest first. */
const sentSince = prepared((q) =>
  q
    .select({ created_at: oneTimeCodes.created_at })
    .from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.phone, sql.placeholder("phone")), gt(oneTimeCodes.created_at, sql.placeholder("since"))))
    .orderBy(asc(oneTimeCodes.created_at))
    .prepare(),
);

const insertCodeRow = insertReturning(oneTimeCodes);

type Block = { reason: "too-soon" | "hourly-cap"; until: Date };

/** Why (and until when) a new code may not be sent now, or null when it may. */
function sendBlock(q: Executor, purpose: CodePurpose, subjectId: number, phone: string, at: Date): Block | null {
  const last = latestRow(q, purpose, subjectId);
  if (last) {
    const until = new Date(Date.parse(last.created_at) + OTP_RULES.resendAfterSeconds * 1000);
    if (until > at) return { reason: "too-soon", until };
  }
  const recent = sentSince(q).all({ phone, since: new Date(at.getTime() - HOUR_MS).toISOString() });
  if (recent.length >= OTP_RULES.maxSendsPerHour) {
    // The send that has to leave the one-hour window before another is allowed.
    const blocking = recent[recent.length - OTP_RULES.maxSendsPerHour];
    return { reason: "hourly-cap", until: new Date(Date.parse(blocking.created_at) + HOUR_MS) };
  }
  return null;
}

const secondsUntil = (until: Date, at: Date) => Math.max(1, Math.ceil((until.getTime() - at.getTime()) / 1000));

export type IssueInput = {
  purpose: CodePurpose;
  subjectId: number;
  phone: string;
  text: (code: string) => string;
  smsPurpose: SmsPurpose;
  /**
   * Who asked for the code: a visitor of the public forms ("public": their own hourly ceiling, the
   * code-SMS ceiling less the staff reserve) or staff ("staff": the counters' codes and password resets,
   * which may spend the reserve).
   */
  sender: "public" | "staff";
  /**
   * Whether the SMS names its subject, so `codeDelivery(smsPurpose, subjectId)` reports it
   * (default true). A code whose delivery is never shown (the continue step's access code,
   * decision 4) leaves it out, so it cannot stand in for the subject's other code.
   */
  tracked?: boolean;
};

/** A code issued inside a transaction: its expiry, or why none may be sent now. */
export type Issued =
  | { ok: true; expiresAt: string; phone: string; text: string }
  | { ok: false; reason: IssueRefusal; retryAfterSeconds: number };

/** Why no code may be sent now: the phone's 60-second or hourly rule, or every sender's hourly ceiling. */
export type IssueRefusal = "too-soon" | "hourly-cap" | "ceiling";

/**
 * Writes a new code row through `exec`, unless the 60-second or the hourly rule refuses it, or the
 * hour's code SMS reached their ceiling: every sender's together (CODE_SMS_PER_HOUR), and for a
 * visitor's code the public forms' share of it (less CODE_SMS_STAFF_RESERVE).
 */
function insertCode(exec: Executor, input: IssueInput): Issued {
  const { purpose, subjectId } = input;
  const phone = normalizePhone(input.phone) ?? input.phone.trim();
  const code = randomDigits(OTP_RULES.digits);
  const at = now();
  const block = sendBlock(exec, purpose, subjectId, phone, at);
  if (block) return { ok: false, reason: block.reason, retryAfterSeconds: secondsUntil(block.until, at) };
  if (input.sender === "public") {
    const share = take(exec, "public-code-sms", EVERY_SENDER);
    if (!share.ok) return { ok: false, reason: "ceiling", retryAfterSeconds: share.retryAfterSeconds };
  }
  const ceiling = take(exec, "code-sms", EVERY_SENDER);
  if (!ceiling.ok) return { ok: false, reason: "ceiling", retryAfterSeconds: ceiling.retryAfterSeconds };
  const expiresAt = new Date(at.getTime() + OTP_RULES.validSeconds * 1000).toISOString();
  insertCodeRow(exec, {
    purpose,
    subject_id: subjectId,
    phone,
    code: HASH_ONLY.includes(purpose) ? null : code,
    code_hash: hashCode(purpose, subjectId, code),
    expires_at: expiresAt,
    created_at: at.toISOString(),
  });
  return { ok: true, expiresAt, phone, text: input.text(code) };
}

/**
 * Issues a code inside the caller's transaction: the code row and its SMS,
 * stored as queued in the same transaction (one commit for the whole write).
 * The caller calls `wakeSmsWorker()` after the commit, so the SMS leaves at
 * once without the request waiting for it.
 */
export function issueCodeIn(tx: Executor, input: IssueInput): Issued {
  const issued = insertCode(tx, input);
  if (issued.ok) {
    queueMessage(tx, {
      to: issued.phone,
      text: issued.text,
      purpose: input.smsPurpose,
      subjectId: input.tracked === false ? null : input.subjectId,
      validUntil: issued.expiresAt,
    });
  }
  return issued;
}

export type VerifyResult =
  | { ok: true }
  | { ok: false; reason: "invalid"; attemptsLeft: number }
  | { ok: false; reason: "expired" | "exhausted" | "none" };

/**
 * Checks a code against the subject's latest code, inside the caller's
 * transaction. A miss uses up one of the code's 5 tries; a match consumes the
 * code, so it works once. Both are writes: the caller commits them (a miss
 * must be returned, not thrown, or its try is rolled back).
 */
export function checkCodeIn(
  tx: Executor,
  input: { purpose: CodePurpose; subjectId: number; code: string | null | undefined },
): VerifyResult {
  const { purpose, subjectId } = input;
  const given = String(input.code ?? "").replace(/\s+/g, "");
  const at = now();
  const row = latestRow(tx, purpose, subjectId);
  if (!row || row.consumed_at) return { ok: false, reason: "none" };
  if (Date.parse(row.expires_at) <= at.getTime()) return { ok: false, reason: "expired" };
  if (row.attempts >= OTP_RULES.maxAttempts) return { ok: false, reason: "exhausted" };
  if (!safeEqual(hashCode(purpose, subjectId, given), row.code_hash)) {
    missedTry(tx).run({ id: row.id });
    return { ok: false, reason: "invalid", attemptsLeft: OTP_RULES.maxAttempts - row.attempts - 1 };
  }
  consume(tx).run({ id: row.id, at: at.toISOString() });
  return { ok: true };
}

const missedTry = prepared((q) =>
  q
    .update(oneTimeCodes)
    .set({ attempts: sql`${oneTimeCodes.attempts} + 1` })
    .where(eq(oneTimeCodes.id, sql.placeholder("id")))
    .prepare(),
);

const consume = prepared((q) =>
  q
    .update(oneTimeCodes)
    .set({ consumed_at: sql`${sql.placeholder("at")}` })
    .where(eq(oneTimeCodes.id, sql.placeholder("id")))
    .prepare(),
);

/** `checkCodeIn` in a transaction of its own, for a check with nothing else to commit. */
export function verifyCode(input: {
  purpose: CodePurpose;
  subjectId: number;
  code: string | null | undefined;
}): VerifyResult {
  return db.transaction((tx) => checkCodeIn(tx, input), { behavior: "immediate" });
}

export type CodeState = "live" | "used" | "expired" | "exhausted";

export type CodeInfo = {
  /** The plain code; null for password resets. */
  code: string | null;
  phone: string;
  expiresAt: string;
  attemptsLeft: number;
  state: CodeState;
  createdAt: string;
};

function describe(row: CodeRow, at: Date): CodeInfo {
  const state: CodeState = row.consumed_at
    ? "used"
    : Date.parse(row.expires_at) <= at.getTime()
      ? "expired"
      : row.attempts >= OTP_RULES.maxAttempts
        ? "exhausted"
        : "live";
  return {
    code: row.code,
    phone: row.phone,
    expiresAt: row.expires_at,
    attemptsLeft: Math.max(0, OTP_RULES.maxAttempts - row.attempts),
    state,
    createdAt: row.created_at,
  };
}

/** The subject's latest code whatever its state (staff screens), or null. */
export function latestCode(purpose: CodePurpose, subjectId: number, exec: Executor = db): CodeInfo | null {
  const row = latestRow(exec, purpose, subjectId);
  return row ? describe(row, now()) : null;
}

/** The subject's code that can still be entered, with its expiry, or null. */
export function currentCode(purpose: CodePurpose, subjectId: number, exec: Executor = db): CodeInfo | null {
  const info = latestCode(purpose, subjectId, exec);
  return info?.state === "live" ? info : null;
}

/**
 * When a new code may be sent to the subject (now or later), judged against the
 * phone of its last code. A subject without codes may be sent one now.
 */
export function canResendAt(purpose: CodePurpose, subjectId: number, exec: Executor = db): Date {
  const at = now();
  const last = latestRow(exec, purpose, subjectId);
  if (!last) return at;
  return sendBlock(exec, purpose, subjectId, last.phone, at)?.until ?? at;
}
