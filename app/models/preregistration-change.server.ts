/**
 * "Wrong number? Change it": the visitor who made an unverified public
 * pre-registration corrects it from its verify page. The same record is kept
 * (no second entry for one person): its values are replaced, and when the
 * phone changed the code sent to the old number stops working and a fresh
 * one goes to the new number (or, within the 60 seconds of the code rules,
 * when the visitor asks with Resend code). The rules of a save apply through
 * the one checker of pre-registration writes (`checkPreregistrationWrite`:
 * open campaign, the address's and the new phone's limits, references, one
 * entry per phone, one pending purchase per citizenship/PAN), in one
 * IMMEDIATE transaction with the code and its SMS. The route checks
 * that the browser owns the entry (app/http/owned-entries.server.ts).
 */
import { and, eq, isNull } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import type { Preregistration } from "@db/schema";
import { OTP_MESSAGES, PREREGISTRATION_MESSAGES as M, type PreregistrationInput } from "~/schemas/preregistration";
import { nowIso } from "~/utils/time";
import { fail, type Result } from "~/utils/failure";
import { issueCodeIn } from "./otp.server";
import {
  checkPreregistrationWrite,
  fileOf,
  formColumns,
  otpText,
  resolveScreenshotRef,
  storeScreenshot,
  type Screenshot,
  type Visitor,
} from "./preregistration.server";
import { wakeSmsWorker } from "./sms.server";
import { transact } from "./transaction.server";

const P = schema.preregistrations;
const C = schema.oneTimeCodes;

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

export type Changed = { preregistration: Preregistration; phoneChanged: boolean; codeSent: boolean };

/** Replaces the values of an unverified public entry; a new phone gets a fresh code. */
export async function changePreregistration(
  visitor: Visitor,
  slug: string,
  value: PreregistrationInput,
  screenshot: Screenshot = {},
): Promise<Result<Changed>> {
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
  let codeSent = false;
  const outcome = transact((tx): Result<Changed> => {
    const entry = changeableEntry(slug, tx);
    if (!entry) return fail.notFound(OTP_MESSAGES.notFound);
    phoneChanged = entry.phone !== value.phone;
    // The rules of every public save, with this entry left out of "phone taken".
    const checked = checkPreregistrationWrite(
      tx,
      visitor,
      value,
      [
        ["enquiry-ip", visitor.address],
        ["enquiry-phone", phoneChanged ? value.phone : null],
      ],
      entry.id,
    );
    if (!checked.ok) return checked;
    const after = tx
      .update(P)
      .set({
        ...formColumns(value, screenshotId),
        nearest_branch_id: value.nearest_branch_id ?? entry.nearest_branch_id,
        updated_at: nowIso(),
      })
      .where(eq(P.id, entry.id))
      .returning()
      .get();
    if (phoneChanged) {
      // The code sent to the old number proves nothing of the new one.
      tx.update(C)
        .set({ consumed_at: nowIso() })
        .where(and(eq(C.purpose, "preregistration"), eq(C.subject_id, entry.id), isNull(C.consumed_at)))
        .run();
      codeSent = issueCodeIn(tx, {
        purpose: "preregistration",
        subjectId: entry.id,
        phone: after.phone,
        text: otpText,
        smsPurpose: "otp",
        sender: "public",
      }).ok;
    }
    return { ok: true, preregistration: after, phoneChanged, codeSent };
  });
  if (outcome.ok && codeSent) wakeSmsWorker();
  return outcome;
}
