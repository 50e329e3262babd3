/**
 * Password reset by a one-time code sent by SMS to the account's phone. The
 * answer never tells whether an e-mail has an account.
 */
import { findUserByEmail, setPassword } from "./user.server";
import { issueCode, verifyCode } from "./otp.server";
import type { Actor } from "./audit.server";

export async function requestPasswordReset(email: string): Promise<void> {
  const user = findUserByEmail(email);
  if (!user?.phone) return;
  await issueCode({
    purpose: "password_reset",
    subjectId: user.id,
    phone: user.phone,
    smsPurpose: "password-reset",
    text: (code) => `Your back-office password reset code is ${code}. It is valid for 10 minutes.`,
  });
}

export type ResetResult = { ok: true } | { ok: false; field: "code"; message: string };

/** Checks the code and sets the new password; every session and token of the user ends. */
export async function resetPassword(
  email: string,
  code: string,
  password: string,
  address: string | null,
): Promise<ResetResult> {
  const user = findUserByEmail(email);
  const check = user ? verifyCode({ purpose: "password_reset", subjectId: user.id, code }) : { ok: false as const };
  if (!user || !check.ok) return { ok: false, field: "code", message: "The code is invalid or has expired." };
  const actor: Actor = { id: user.id, email: user.email, address };
  await setPassword(actor, user.id, password);
  return { ok: true };
}
