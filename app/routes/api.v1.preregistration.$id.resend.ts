import type { ActionFunctionArgs } from "@remix-run/node";
import { findPreregistration, resolvePreregistrationKey } from "~/models/preregistration-admin.server";
import { resendVerificationCode } from "~/models/preregistration.server";
import { apiData, apiError, notFound, requireApiUser } from "~/utils/api.server";

/**
 * POST /api/v1/preregistration/{id}/resend (the spec leaves the resend path
 * open): a fresh verification code to the customer, within the code rules
 * (one a minute, five an hour per phone). 429 with retry_after_seconds when refused.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed.");
  const user = await requireApiUser(request, "read-registration");
  const slug = resolvePreregistrationKey(user.scope, params.id!) ?? params.id!;
  const pre = findPreregistration(user.scope, slug);
  if (!pre) return notFound("Pre-registration");
  const res = await resendVerificationCode(pre.slug);
  if (res.ok) return apiData({ expires_at: res.expiresAt, resend_at: res.resendAt }, res.message);
  if (res.reason === "already_verified") return apiError(409, res.message);
  return Response.json(
    { message: res.message, retry_after_seconds: res.retryAfterSeconds ?? null },
    { status: res.reason === "not_found" ? 404 : 429 },
  );
}
