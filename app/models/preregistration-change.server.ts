/**
 * "Wrong number? Change it": the visitor who made an unverified public
 * pre-registration corrects it from its verify page. The same record is kept
 * (no second entry for one person): its values are replaced, and when the
 * phone changed a fresh code goes to the new number (a code is checked
 * against the entry's latest, so the old one stops working). The rules of a
 * save apply (open campaign, the address's and the new phone's limits,
 * references, one entry per phone, one pending purchase per citizenship/PAN),
 * in one IMMEDIATE transaction with the code and its SMS. The route checks
 * that the browser owns the entry (app/utils/owned-entries.server.ts).
 */
import { and, eq, isNull, ne } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import type { Preregistration } from "@db/schema";
import { OTP_MESSAGES, PREREGISTRATION_MESSAGES as M, type PreregistrationInput } from "~/schemas/preregistration";
import { take } from "~/utils/rate-limit.server";
import { nowIso } from "~/utils/time";
import { fail, FailureError, type Result } from "./failure";
import { canResendAt, issueCodeIn } from "./otp.server";
import {
  otpText,
  referenceErrors,
  resolveScreenshotRef,
  storeScreenshot,
  type Screenshot,
  type Visitor,
} from "./preregistration.server";
import { isRegistrationOpen } from "./settings.server";
import { wakeSmsWorker } from "./sms.server";
import { transact } from "./transaction.server";

const P = schema.preregistrations;

/** The entry a visitor may still change: made on the public site, unverified, not deleted. */
export function changeableEntry(slug: string, exec: Executor = db): Preregistration | null {
  if (!slug) return null;
  return (
    exec
      .select()
      .from(P)
      .where(and(eq(P.slug, slug), isNull(P.deleted_at), isNull(P.branch_id), eq(P.is_verified, false)))
      .get() ?? null
  );
}

const fileOf = (file: File | null | undefined): File | null => (file instanceof File && file.size > 0 ? file : null);

/** Replaces the values of an unverified public entry; a new phone gets a fresh code. */
export async function changePreregistration(
  visitor: Visitor,
  slug: string,
  value: PreregistrationInput,
  screenshot: Screenshot = {},
): Promise<Result<{ preregistration: Preregistration; phoneChanged: boolean }>> {
  const before = changeableEntry(slug);
  if (!before) return fail.notFound(OTP_MESSAGES.notFound);
  let screenshotId: number | null = value.shared ? before.screenshot_id : null;
  if (value.shared) {
    const file = fileOf(screenshot.file);
    if (file) {
      const stored = await storeScreenshot(file, null);
      if (!stored.ok) return stored;
      screenshotId = stored.id;
    } else {
      screenshotId = resolveScreenshotRef(screenshot.ref ?? value.screenshot_ref) ?? screenshotId;
    }
    if (!screenshotId) return fail.field("screenshot", M.screenshotRequired);
  }
  let phoneChanged = false;
  const outcome = transact((tx): Result<{ preregistration: Preregistration; phoneChanged: boolean }> => {
    const entry = changeableEntry(slug, tx);
    if (!entry) return fail.notFound(OTP_MESSAGES.notFound);
    if (!isRegistrationOpen()) return fail.closed(M.closed);
    phoneChanged = entry.phone !== value.phone;
    for (const [name, key] of [
      ["enquiry-ip", visitor.address],
      ["enquiry-phone", phoneChanged ? value.phone : null],
    ] as const) {
      if (!key) continue;
      const limited = take(tx, name, key);
      if (!limited.ok) return fail.rateLimited(limited.retryAfterSeconds);
    }
    const errors = referenceErrors(tx, {
      bike_model_id: value.bike_model_id,
      nearest_branch_id: value.nearest_branch_id,
    });
    if (Object.keys(errors).length) return fail.invalid(errors);
    const taken = tx
      .select({ id: P.id })
      .from(P)
      .where(and(eq(P.campaign, entry.campaign), eq(P.phone, value.phone), ne(P.id, entry.id)))
      .get();
    if (taken) return fail.field("phone", M.phoneTaken);
    const pending = tx
      .select({ id: P.id })
      .from(P)
      .where(
        and(
          eq(P.citizenship_no, value.citizenship_no),
          eq(P.is_verified, true),
          eq(P.purchased, false),
          isNull(P.deleted_at),
          ne(P.id, entry.id),
        ),
      )
      .get();
    if (pending) return fail.invalid({ citizenship_no: [M.pendingPurchase] });
    if (phoneChanged) {
      const wait = Math.ceil((canResendAt("preregistration", entry.id, tx).getTime() - Date.now()) / 1000);
      if (wait > 0) return fail.rateLimited(wait, OTP_MESSAGES.tooSoon(wait));
    }
    const after = tx
      .update(P)
      .set({
        name: value.name,
        address: value.address,
        email: value.email ?? null,
        phone: value.phone,
        citizenship_no: value.citizenship_no,
        shared: value.shared,
        screenshot_id: screenshotId,
        bike_model_id: value.bike_model_id ?? null,
        source: value.source ?? null,
        note: value.note ?? null,
        nearest_branch_id: value.nearest_branch_id ?? entry.nearest_branch_id,
        updated_at: nowIso(),
      })
      .where(eq(P.id, entry.id))
      .returning()
      .get();
    if (phoneChanged) {
      const issued = issueCodeIn(tx, {
        purpose: "preregistration",
        subjectId: entry.id,
        phone: after.phone,
        text: otpText,
        smsPurpose: "otp",
      });
      if (!issued.ok) throw new FailureError(fail.rateLimited(issued.retryAfterSeconds));
    }
    return { ok: true, preregistration: after, phoneChanged };
  });
  if (outcome.ok && phoneChanged) wakeSmsWorker();
  return outcome;
}
