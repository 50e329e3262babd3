/** Model failures (field → messages, "form" for the rest) as a conform reply for the page. */
import type { Submission } from "@conform-to/react";

export function replyWithErrors(submission: Pick<Submission<unknown>, "reply">, errors: Record<string, string[]>) {
  const { form, ...fieldErrors } = errors;
  return submission.reply({ formErrors: form, fieldErrors });
}

/** A fresh idempotency token for a rendered form (a double submit makes one record). */
export { randomToken as newFormToken } from "~/utils/crypto.server";
