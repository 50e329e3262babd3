import type { ActionFunctionArgs } from "@remix-run/node";
import { canSeeCodes } from "~/utils/permissions";
import { currentCode } from "~/models/otp.server";
import { findPreregistration, resolvePreregistrationKey } from "~/models/preregistration-admin.server";
import { resendVerificationCode, verifyPreregistration } from "~/models/preregistration.server";
import { apiData, apiError, notFound, readForm, requireApiUser, validationError } from "~/utils/api.server";

const ENTER_CODE = "Enter the registration code the customer received";
const MISMATCH = "the code you have selected is incorrect. Please try again or resend the code";

/**
 * POST /api/v1/preregistration/{id}/verify {code}: the code the customer
 * received, compared on the server; a mismatch sends a fresh code and answers
 * 422 with the spec's message. The old client's call without a body still
 * works for staff who may see codes (they could read the code anyway): the
 * current code is used. The second thrill is drawn on success (data.prize).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed.");
  const user = await requireApiUser(request, "read-registration");
  const slug = resolvePreregistrationKey(user.scope, params.id!) ?? params.id!;
  const pre = findPreregistration(user.scope, slug);
  if (!pre) return notFound("Pre-registration");
  const form = await readForm(request);
  let code = String(form.get("code") ?? "").trim();
  if (!code && !pre.is_verified) {
    if (!canSeeCodes(user)) return validationError({ code: [ENTER_CODE] });
    code = currentCode("preregistration", pre.id)?.code ?? "";
    if (!code) return validationError({ code: ["There is no live code. Resend the code first."] });
  }
  const res = await verifyPreregistration(pre.slug, code);
  if (res.ok) {
    const fresh = findPreregistration(user.scope, pre.slug);
    return apiData(
      { ...fresh, draw: { amount: res.draw.amount, outcome: res.draw.outcome } },
      "Phone number verified.",
    );
  }
  if (res.reason === "not_found") return notFound("Pre-registration");
  if (res.reason === "pending_purchase" || res.reason === "rate_limited") {
    return apiError(res.reason === "rate_limited" ? 429 : 422, res.message, { code: [res.message] });
  }
  const resent = await resendVerificationCode(pre.slug);
  return apiError(422, MISMATCH, { code: [MISMATCH], ...(resent.ok ? {} : { resend: [resent.message] }) });
}
