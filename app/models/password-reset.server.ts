/**
 * Password reset by a one-time code sent by SMS to the account's phone. The
 * answer never tells whether an e-mail has an account.
 */
import { db } from "@db/index";
import { wakeSmsWorker } from "./sms.server";
import { findUserByEmail, passwordProblem, setPassword } from "./user.server";
import { checkCodeIn, issueCodeIn } from "./otp.server";
import type { Actor } from "./audit.server";
import { fail, type Failure } from "~/utils/failure";

export const RESET_CODE_INVALID = "The code is invalid or has expired.";

/**
 * Every reset request is answered this long after it arrived, whether the e-mail has an account, has
 * none, or met its limit: the work (a few milliseconds) is done inside it, so the time tells nothing.
 */
export const RESET_ANSWER_MS = 250;

const after = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Issues a reset code for the account behind an e-mail, if there is one with
 * a phone (and `send`, false when the account's limit is met). The code and its SMS are written in
 * one transaction; the SMS leaves through the worker, so the request does not wait for the gateway.
 * Resolves RESET_ANSWER_MS after the call in every case.
 */
export async function requestPasswordReset(email: string, send = true): Promise<void> {
  const answer = after(RESET_ANSWER_MS);
  if (send) issueResetCode(email);
  await answer;
}

function issueResetCode(email: string): void {
  const user = findUserByEmail(email);
  if (!user?.phone) return;
  const phone = user.phone;
  const issued = db.transaction(
    (tx) =>
      issueCodeIn(tx, {
        purpose: "password_reset",
        subjectId: user.id,
        phone,
        smsPurpose: "password-reset",
        sender: "staff",
        text: (code) => `Your back-office password reset code is ${code}. It is valid for 10 minutes.`,
      }),
    { behavior: "immediate" },
  );
  if (issued.ok) wakeSmsWorker();
}

export type ResetResult = { ok: true } | (Failure & { field: "code" | "password" });

/** Checks the code and sets the new password; every session and token of the user ends. */
export async function resetPassword(
  email: string,
  code: string,
  password: string,
  address: string | null,
): Promise<ResetResult> {
  // The same password rules as everywhere (not common, not the e-mail), before the code is used up.
  const problem = await passwordProblem(password, email);
  if (problem) return { ...fail.field("password", problem), field: "password" };
  const user = findUserByEmail(email);
  const check = user
    ? db.transaction((tx) => checkCodeIn(tx, { purpose: "password_reset", subjectId: user.id, code }), {
        behavior: "immediate",
      })
    : { ok: false as const };
  if (!user || !check.ok) return { ...fail.field("code", RESET_CODE_INVALID), field: "code" };
  const actor: Actor = { id: user.id, email: user.email, address };
  await setPassword(actor, user.id, password);
  return { ok: true };
}
