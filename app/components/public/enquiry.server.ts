/**
 * What the public pre-registration routes (the /enquiry page and POST
 * /api/v1/enquiry) share before the model runs: the guard (honeypot, the
 * address's rate limit, the schema, the captcha). The rules themselves live in
 * app/models/preregistration.server.ts.
 */
import type { z } from "zod";
import { fail, type Failure } from "~/models/failure";
import { PREREGISTRATION_MESSAGES as M } from "~/schemas/preregistration";
import { bodyText, parseValue, type Body, type Parsed } from "~/utils/body.server";
import { CAPTCHA_FIELD, CAPTCHA_MESSAGE, HONEYPOT_FIELD, honeypotTripped, verifyCaptcha } from "~/utils/captcha.server";
import { hit, peek, type LimitName } from "~/utils/rate-limit.server";

export type GuardOptions = {
  /** The client address (the rate limit's key). */
  address: string | null;
  /** The limit the post counts against (the model takes its point in its own transaction). */
  limit: LimitName;
  /** Check the captcha answer (the save; never the confirmation step, as a captcha answer works once). */
  captcha: boolean;
};

function honeypotIn(body: Body): boolean {
  if (body.kind === "form") return honeypotTripped(body.form);
  if (body.kind === "json") return Boolean(bodyText(body, HONEYPOT_FIELD)?.trim());
  return false;
}

/**
 * The guard of a public post: a filled honeypot is refused; an address over
 * its limit is refused before any work (nothing written); the body is parsed
 * with the shared schema (an invalid one costs the address a point here, as
 * the model is not reached); then the captcha is checked when asked. A valid
 * post's point is taken by the model inside its write's transaction.
 */
export async function guardPublicPost<S extends z.ZodType>(
  body: Body,
  schema: S,
  options: GuardOptions,
): Promise<Parsed<S> | Failure> {
  if (honeypotIn(body)) return fail.invalid({ form: [M.rejected] });
  const { address, limit } = options;
  if (address) {
    const over = peek(limit, address);
    if (!over.ok) return fail.rateLimited(over.retryAfterSeconds);
  }
  const parsed = parseValue(body, schema);
  if (!parsed.ok) {
    if (address) hit(limit, address);
    return parsed;
  }
  if (options.captcha) {
    const captcha = await verifyCaptcha(bodyText(body, CAPTCHA_FIELD), address);
    if (!captcha.ok) return fail.field(CAPTCHA_FIELD, captcha.message ?? CAPTCHA_MESSAGE);
  }
  return parsed;
}
