/**
 * The small guard in front of a public form's write, kept out of the models:
 * the honeypot, the client address's rate limit and the captcha (when
 * configured). The address's point itself is taken inside the write's own
 * transaction (`chargeAddress`), so the write stays one commit; before it,
 * the guard only looks whether the address is already over its limit, so a
 * flood never reaches the captcha service.
 */
import type { z } from "zod";
import type { Tx } from "@db/index";
import { fail, type Failure } from "~/utils/failure";
import { bodyText, parseValue, type Body, type Parsed } from "./body.server";
import { CAPTCHA_FIELD, CAPTCHA_MESSAGE, honeypotTripped, HONEYPOT_FIELD, verifyCaptcha } from "./captcha.server";
import { hit, peek, take, type LimitName } from "~/utils/rate-limit.server";

const REJECTED_MESSAGE = "Your form could not be accepted. Please try again.";

/** A body's honeypot: a form's field, or the same key in JSON. */
function honeypot(body: Body): boolean {
  if (body.kind === "form") return honeypotTripped(body.form);
  return Boolean(bodyText(body, HONEYPOT_FIELD)?.trim());
}

/**
 * The checks that cost nothing, before a public form is even parsed: the
 * honeypot (invalid, with a form message) and the client address already over
 * `limit` (rate_limited). Null to go on.
 */
export function screenPublicForm(body: Body, address: string, limit: LimitName): Failure | null {
  if (honeypot(body)) return fail.invalid({ form: [REJECTED_MESSAGE] });
  const over = peek(limit, address);
  return over.ok ? null : fail.rateLimited(over.retryAfterSeconds);
}

/**
 * The captcha (when configured): null when it passes, else its message under
 * g-recaptcha-response. Call it once the form's own values are valid, so a
 * visitor's typo does not spend their captcha.
 */
export async function checkCaptcha(body: Body, address: string | null): Promise<Failure | null> {
  const captcha = await verifyCaptcha(bodyText(body, CAPTCHA_FIELD), address);
  return captcha.ok ? null : fail.field(CAPTCHA_FIELD, captcha.message ?? CAPTCHA_MESSAGE);
}

/** The address's point, taken inside the write's transaction; a Failure once over the limit. */
export function chargeAddress(limit: LimitName, address: string): (tx: Tx) => Failure | null {
  return (tx) => {
    const taken = take(tx, limit, address);
    return taken.ok ? null : fail.rateLimited(taken.retryAfterSeconds);
  };
}

export type GuardOptions = {
  /** The client address (the rate limit's key). */
  address: string | null;
  /** The limit the post counts against (the write takes its point in its own transaction). */
  limit: LimitName;
  /** Check the captcha answer (the save; never a confirmation step, as a captcha answer works once). */
  captcha: boolean;
};

/**
 * The whole guard of a public post: the screen above; then the body parsed
 * with the shared schema (an invalid one costs the address a point here, as
 * the write is not reached); then the captcha when asked. A valid post's point
 * is taken by the write inside its own transaction (`chargeAddress`).
 */
export async function guardPublicPost<S extends z.ZodType>(
  body: Body,
  schema: S,
  { address, limit, captcha }: GuardOptions,
): Promise<Parsed<S> | Failure> {
  if (address) {
    const screened = screenPublicForm(body, address, limit);
    if (screened) return screened;
  } else if (honeypot(body)) return fail.invalid({ form: [REJECTED_MESSAGE] });
  const parsed = await parseValue(body, schema);
  if (!parsed.ok) {
    if (address) hit(limit, address);
    return parsed;
  }
  if (captcha) {
    const refused = await checkCaptcha(body, address);
    if (refused) return refused;
  }
  return parsed;
}
