/**
 * The user form's answers: a parse or model failure comes back as conform's
 * reply with the values typed, except the passwords, which are never sent
 * back to the browser.
 */
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import type { z } from "zod";
import type { Failure } from "~/models/failure";
import { PASSWORD_FIELDS } from "~/schemas/user";
import { replyFailure } from "~/utils/http.server";

/** The form without its password fields (for the reply's re-fill). */
export function withoutPasswords(form: FormData): FormData {
  const copy = new FormData();
  form.forEach((v, k) => {
    if (!(PASSWORD_FIELDS as readonly string[]).includes(k)) copy.append(k, v);
  });
  return copy;
}

type Reply = ReturnType<typeof replyFailure>;
type Parsed<S extends z.ZodType> = { ok: true; value: z.output<S> } | { ok: false; reply: Reply };

/** The form parsed with the shared schema, or the 422 reply with its field errors (passwords hidden). */
export function parseUserForm<S extends z.ZodType>(form: FormData, schema: S): Parsed<S> {
  const submission = parseWithZod(form, { schema });
  if (submission.status === "success") return { ok: true, value: submission.value as z.output<S> };
  return {
    ok: false,
    reply: data(
      { result: submission.reply({ hideFields: [...PASSWORD_FIELDS] }) as SubmissionResult<string[]> },
      {
        status: 422,
      },
    ),
  };
}

/** A model's field failure as the form's reply (passwords hidden). */
export const replyUserFailure = (form: FormData, failure: Failure) => replyFailure(withoutPasswords(form), failure);
