/** Answers shared by the counter pages: model failures as a conform reply, and the pre-registration pages' load failure. */
import type { Submission } from "@conform-to/react";
import type { Failure } from "~/models/failure";
import { oops, redirectWithToast } from "~/utils/toast.server";

export function replyWithErrors(submission: Pick<Submission<unknown>, "reply">, errors: Record<string, string[]>) {
  const { form, ...fieldErrors } = errors;
  return submission.reply({ formErrors: form, fieldErrors });
}

/** A fresh idempotency token for a rendered form (a double submit makes one record). */
export { randomToken as newFormToken } from "~/utils/crypto.server";

/**
 * Spec 000 §2: a pre-registration that cannot be loaded (missing, or out of
 * the user's reach) sends staff to /admin with the reason. Thrown by every
 * back-office pre-registration page in place of the 404 page.
 */
export async function preregistrationNotFound(failure?: Pick<Failure, "message">): Promise<Response> {
  return redirectWithToast("/admin", oops(failure?.message ?? "Pre-registration not found."));
}
