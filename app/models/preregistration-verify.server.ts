/**
 * Verifying a pre-registration's phone: the code checked (public and counter),
 * the entry verified and its second-thrill prize drawn in one transaction, the
 * code sent again, and "continue" for the owner of a phone already taken. The
 * rules of the writes are app/models/preregistration.server.ts.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { schema, type Executor } from "@db/index";
import { prepared } from "@db/prepared";
import type { Preregistration } from "@db/schema";
import { fixSecondThrill, isFixedOrDrawn, settleDraw, type DrawResult } from "~/models/prize-draw.server";
import { firstThrill, totalPrize } from "~/utils/prize-constants";
import {
  CONTINUE_MESSAGES,
  COUNTER_VERIFY_MESSAGES as CV,
  FILTERS,
  OTP_MESSAGES,
  PREREGISTRATION_MESSAGES as M,
} from "~/schemas/preregistration";
import { maskPhone } from "~/utils/phone";
import { EVERY_SENDER, peek, take } from "~/utils/rate-limit.server";
import { now } from "~/utils/time";
import { audit, diff } from "./audit.server";
import { fail, FailureError, type Result } from "~/utils/failure";
import { canResendAt, checkCodeIn, currentCode, issueCodeIn, OTP_RULES } from "./otp.server";
import type { ScopedActor } from "./scope.server";
import { wakeSmsWorker } from "./sms.server";
import { transact, transactTogether } from "./transaction.server";
import {
  CAMPAIGN,
  ceilingReached,
  resendMessage,
  type Channel,
  type Visitor,
  otpText,
  pendingPurchaseOf,
  scopeOfChannel,
  takeLimits,
} from "./preregistration.server";
import { rowBySlug } from "./preregistration-reach.server";

const { preregistrations: P } = schema;
const ENTITY = "preregistration";

// ---------------------------------------------------------------- verification and draw

const issueFor = (tx: Executor, entry: Pick<Preregistration, "id" | "phone">, who: Channel) =>
  issueCodeIn(tx, {
    purpose: "preregistration",
    subjectId: entry.id,
    phone: entry.phone,
    text: otpText,
    smsPurpose: "otp",
    sender: who.channel === "public" ? "public" : "staff",
  });

export type Resent = { expiresAt: string; resendAt: string; message: string };

/**
 * Sends a fresh code (the 60-second and 5-per-hour rules of otp.server.ts
 * apply): the code and its SMS, and for a visitor the address's point, in one
 * transaction.
 */
export function resendVerificationCode(who: Channel, slug: string): Result<Resent> {
  const outcome = transact((tx): Result<Resent> => {
    const entry = rowBySlug(tx, slug, scopeOfChannel(who));
    if (!entry) return fail.notFound(OTP_MESSAGES.notFound);
    if (entry.is_verified) return fail.conflict(OTP_MESSAGES.alreadyVerified);
    if (who.channel === "public") {
      const limited = takeLimits(tx, [["otp-resend-ip", who.address]]);
      if (limited) return limited;
    }
    const issued = issueFor(tx, entry, who);
    if (!issued.ok)
      return fail.rateLimited(issued.retryAfterSeconds, resendMessage(issued.reason, issued.retryAfterSeconds));
    return {
      ok: true,
      expiresAt: issued.expiresAt,
      resendAt: canResendAt("preregistration", entry.id, tx).toISOString(),
      message: OTP_MESSAGES.resent,
    };
  });
  if (outcome.ok) wakeSmsWorker();
  return outcome;
}

/**
 * The second thrill of a verified entry: fixed now if it was not (a race left it undone), then
 * drawn once its beacon round comes. `created` says whether this call fixed it.
 */
export async function secondThrillOf(entryId: number): Promise<DrawResult> {
  // Fixed with its verification as a rule: the write lock is taken only when a race left it unfixed.
  if (isFixedOrDrawn("preregistration", entryId)) return settleDraw("preregistration", entryId);
  const fixed = await transactTogether((tx) => fixSecondThrill(tx, entryId));
  if (typeof fixed !== "boolean") throw new FailureError(fixed);
  return settleDraw("preregistration", entryId, fixed);
}

/** Draws a fixed entry in the background, so it is drawn even when no one waits for it. */
function drawSoon(entryId: number) {
  settleDraw("preregistration", entryId, false, { background: true }).catch((error: unknown) =>
    console.error(`The draw of pre-registration ${entryId} failed: ${String(error)}`),
  );
}

export type Verified = {
  preregistration: Preregistration;
  /** The entry's draw: fixed in the verification's transaction, made once its beacon round comes. */
  draw: () => Promise<DrawResult>;
  alreadyVerified: boolean;
};

/**
 * Checks a code and, when it is right, consumes it, marks the entry verified
 * (is_verified, status "verified", verified_at) and draws its second thrill,
 * all in one transaction. An entry verified before gives its existing draw back.
 *
 * Public (spec 000 §4): empty → "OTP is required"; wrong → "Invalid OTP"
 * (expired and used-up codes say so); a point of the address's limit per try.
 * Counter (spec 000 §4, §8): empty → "Enter the registration code the customer
 * received" (or, with `useCurrentCode`, staff who may see codes verify with the
 * live code, as the old client's no-body call did); a wrong code answers
 * "the code you have selected is incorrect. Please try again or resend the
 * code" and sends a fresh code when the code rules allow one (errors.resend
 * says why not otherwise). Staff verifications are audited.
 */
export async function verifyPreregistration(
  who: Channel,
  slug: string,
  code: string | null | undefined,
  opts: { useCurrentCode?: boolean } = {},
): Promise<Result<Verified>> {
  let resent = false;
  const outcome = await transactTogether((tx): Result<Verified> => {
    const entry = rowBySlug(tx, slug, scopeOfChannel(who));
    if (!entry) return fail.notFound(OTP_MESSAGES.notFound);
    if (entry.is_verified) {
      return { ok: true, preregistration: entry, draw: () => secondThrillOf(entry.id), alreadyVerified: true };
    }
    let given = FILTERS.digits(code ?? "");
    if (!given) {
      if (who.channel === "public") return fail.field("code", OTP_MESSAGES.required);
      if (!opts.useCurrentCode) return fail.field("code", CV.enterCode);
      given = currentCode("preregistration", entry.id, tx)?.code ?? "";
      if (!given) return fail.field("code", CV.noLiveCode);
    }
    if (who.channel === "public") {
      const limited = takeLimits(tx, [["otp-verify-ip", who.address]]);
      if (limited) return limited;
    }
    if (pendingPurchaseOf(tx, entry.citizenship_no, entry.id)) return fail.field("code", M.pendingPurchase);

    const checked = checkCodeIn(tx, { purpose: "preregistration", subjectId: entry.id, code: given });
    if (!checked.ok) {
      // Returned, not thrown: the used-up try (and a fresh code) must commit.
      if (who.channel === "public") {
        const message =
          checked.reason === "expired"
            ? OTP_MESSAGES.expired
            : checked.reason === "exhausted"
              ? OTP_MESSAGES.exhausted
              : checked.reason === "invalid" && checked.attemptsLeft === 0
                ? OTP_MESSAGES.lastTry
                : OTP_MESSAGES.invalid;
        return fail.field("code", message);
      }
      const issued = issueFor(tx, entry, who);
      resent = issued.ok;
      return fail.invalid(
        issued.ok
          ? { code: [CV.mismatch] }
          : { code: [CV.mismatch], resend: [resendMessage(issued.reason, issued.retryAfterSeconds)] },
        CV.mismatch,
      );
    }

    return markVerified(tx, who, entry);
  });
  if (resent) wakeSmsWorker();
  if (outcome.ok && !outcome.alreadyVerified) drawSoon(outcome.preregistration.id);
  return outcome;
}

const markQuery = prepared((q) =>
  q
    .update(P)
    .set({
      is_verified: true,
      status: "verified",
      verified_at: sql`${sql.placeholder("at")}`,
      updated_at: sql`${sql.placeholder("at")}`,
    })
    .where(and(eq(P.id, sql.placeholder("id")), eq(P.is_verified, false)))
    .prepare(),
);

const entryById = prepared((q) =>
  q
    .select()
    .from(P)
    .where(eq(P.id, sql.placeholder("id")))
    .prepare(),
);

/**
 * The phone of an entry is proved (its code was right): the entry is marked
 * verified and its second thrill drawn, inside the caller's transaction (staff
 * verifications audited).
 */
function markVerified(tx: Executor, who: Channel, entry: Preregistration): Result<Verified> {
  const at = now().toISOString();
  const marked = markQuery(tx).run({ id: entry.id, at });
  if (marked.changes !== 1) throw new FailureError(fail.conflict(OTP_MESSAGES.alreadyVerified));
  fixSecondThrill(tx, entry.id);
  const after = entryById(tx).get({ id: entry.id })!;
  if (who.channel === "counter") {
    audit(tx, who.actor, {
      action: "preregistration.verify",
      entityType: ENTITY,
      entityId: entry.slug,
      changes: diff(entry, after),
    });
  }
  const created = !entry.is_verified;
  return {
    ok: true,
    preregistration: after,
    draw: () => settleDraw("preregistration", entry.id, created),
    alreadyVerified: false,
  };
}

// ---------------------------------------------------------------- continue: the owner of a taken phone

/**
 * A visitor told "This phone number is already pre-registered." may be its
 * owner on another browser. They ask for a code to that phone; the right code
 * opens their entry (and, being proof of the phone, verifies it if it was
 * not). Both steps answer alike whether or not the phone has an entry, so
 * they tell a stranger nothing the form's message has not (decision 4).
 */
export const accessText = (code: string) =>
  `Your Thrill code to open your pre-registration is ${code}. It is valid for ${OTP_RULES.validSeconds / 60} minutes.`;

/** The live (not deleted) entry of a phone, if any. */
function entryOfPhone(exec: Executor, phone: string): Preregistration | null {
  return (
    exec
      .select()
      .from(P)
      .where(and(eq(P.campaign, CAMPAIGN), eq(P.phone, phone), isNull(P.deleted_at)))
      .get() ?? null
  );
}

export type ContinueSent = { phone: string; resendAt: string; message: string };

/**
 * Sends a code to the stored phone of the entry holding `phone`, if there is
 * one. The answer is the same either way: the masked number, when a new code
 * may be asked for, and "if it is pre-registered, a code was sent". The limits
 * do not depend on the entry either: the address's resend limit, and per phone
 * one send a minute and five an hour (the code rules, counted whether or not
 * the phone is registered). When the code rules of an entry still refuse (its
 * other codes used the hour up), nothing is sent and the answer stays the same.
 */
export function sendContinueCode(visitor: Visitor, phone: string): Result<ContinueSent> {
  let sent = false;
  const outcome = transact((tx): Result<ContinueSent> => {
    const limited = takeLimits(tx, [["otp-resend-ip", visitor.address]]);
    if (limited) return limited;
    // The same answer for a registered phone and another: the ceiling is looked at before either.
    const ceiling = peek("public-code-sms", EVERY_SENDER);
    if (!ceiling.ok) return ceilingReached(ceiling.retryAfterSeconds);
    const wait = take(tx, "continue-phone-wait", phone);
    if (!wait.ok) return fail.rateLimited(wait.retryAfterSeconds, OTP_MESSAGES.tooSoon(wait.retryAfterSeconds));
    const hourly = take(tx, "continue-phone", phone);
    if (!hourly.ok)
      return fail.rateLimited(hourly.retryAfterSeconds, resendMessage("hourly-cap", hourly.retryAfterSeconds));
    const entry = entryOfPhone(tx, phone);
    if (entry) {
      const issued = issueCodeIn(tx, {
        purpose: "preregistration_access",
        subjectId: entry.id,
        phone: entry.phone,
        text: accessText,
        smsPurpose: "otp",
        sender: "public",
        // Not shown anywhere (decision 4); the verify page follows the verification code's SMS alone.
        tracked: false,
      });
      sent = issued.ok;
    }
    return {
      ok: true,
      phone: maskPhone(phone),
      resendAt: new Date(now().getTime() + OTP_RULES.resendAfterSeconds * 1000).toISOString(),
      message: CONTINUE_MESSAGES.sent,
    };
  });
  if (sent) wakeSmsWorker();
  return outcome;
}

export type Continued = { preregistration: Preregistration; verified: boolean };

/**
 * Checks the code of "continue". Every miss answers "Invalid OTP" (spec 000
 * §4), also for a phone without an entry, an expired code or one tried five
 * times, so the answer never tells whether the phone is registered; each try
 * costs the address a point and uses up one of the code's five tries. The right
 * code gives the entry back (the route then records it as this browser's); an
 * unverified entry is verified and drawn in the same transaction, unless its
 * citizenship/PAN has a pending purchase elsewhere (then it stays unverified).
 */
export function checkContinueCode(visitor: Visitor, phone: string, code: string | null | undefined): Result<Continued> {
  const outcome = transact((tx): Result<Continued> => {
    const given = FILTERS.digits(code ?? "");
    if (!given) return fail.field("code", OTP_MESSAGES.required);
    const limited = takeLimits(tx, [["otp-verify-ip", visitor.address]]);
    if (limited) return limited;
    const entry = entryOfPhone(tx, phone);
    if (!entry) return fail.field("code", OTP_MESSAGES.invalid);
    const checked = checkCodeIn(tx, { purpose: "preregistration_access", subjectId: entry.id, code: given });
    // Returned, not thrown: the used-up try must commit.
    if (!checked.ok) return fail.field("code", OTP_MESSAGES.invalid);
    if (entry.is_verified || pendingPurchaseOf(tx, entry.citizenship_no, entry.id)) {
      return { ok: true, preregistration: entry, verified: false };
    }
    const verified = markVerified(tx, visitor, entry);
    if (!verified.ok) return verified;
    return { ok: true, preregistration: verified.preregistration, verified: true };
  });
  if (outcome.ok && outcome.verified) drawSoon(outcome.preregistration.id);
  return outcome;
}

export type PrizeSummary = { amount: number; first: number; total: number };

function summaryOf(entry: Preregistration, amount: number): PrizeSummary {
  const fresh = { ...entry, prize: amount };
  return { amount, first: firstThrill(fresh), total: totalPrize(fresh) };
}

/**
 * The draw page's figures: second thrill (fixed now if missing, and waited for while its beacon
 * round is due), first thrill and total. Null while unverified.
 */
export async function prizeSummary(entry: Preregistration): Promise<PrizeSummary | null> {
  if (!entry.is_verified) return null;
  return summaryOf(entry, (await secondThrillOf(entry.id)).amount);
}

/**
 * The counter's draw page: the entry within the actor's reach, its second thrill fixed now if a
 * race left it undone and waited for (audited when this call fixed it).
 */
export async function counterPrizeSummary(
  actor: ScopedActor,
  slug: string,
): Promise<Result<{ preregistration: Preregistration; summary: PrizeSummary | null }>> {
  const found = await transactTogether((tx) => {
    const entry = rowBySlug(tx, slug, actor.scope);
    if (!entry) return fail.notFound(OTP_MESSAGES.notFound);
    const fixed = entry.is_verified && fixSecondThrill(tx, entry.id);
    if (fixed) {
      // Audited with the fixing: a row that cannot be written undoes it.
      audit(tx, actor, {
        action: "preregistration.draw",
        entityType: ENTITY,
        entityId: entry.slug,
        changes: { draw: { before: null, after: `fixed: ${entry.ref ?? ""}` } },
      });
    }
    return { ok: true as const, preregistration: entry };
  });
  if (!found.ok) return found;
  const entry = found.preregistration;
  if (!entry.is_verified) return { ok: true, preregistration: entry, summary: null };
  const draw = await settleDraw("preregistration", entry.id);
  return { ok: true, preregistration: entry, summary: summaryOf(entry, draw.amount) };
}
