import type { ActionFunctionArgs } from "@remix-run/node";
import { resendVerificationCode } from "~/models/preregistration-verify.server";
import { apiData, requireApiUser } from "~/http/api.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/**
 * POST /api/v1/preregistration/{id}/resend (the spec leaves the resend path
 * open): a fresh verification code to the customer, within the code rules
 * (one a minute, five an hour per phone). 429 with Retry-After when refused;
 * 409 once verified; 404 out of the caller's reach.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request, "read-registration");
  const res = resendVerificationCode({ channel: "counter", actor: user }, params.id ?? "");
  if (!res.ok) return apiFailure(res);
  return apiData({ expires_at: res.expiresAt, resend_at: res.resendAt }, res.message);
}

/** Not a call to read: 405 with Allow. */
export const loader = () => methodNotAllowed("POST");
