import type { ActionFunctionArgs } from "@remix-run/node";
import { checkContinueCode } from "~/models/preregistration-verify.server";
import { ownerView } from "~/models/preregistration-read.server";
import { CONTINUE_MESSAGES, continueVerifySchema } from "~/schemas/preregistration";
import { apiData } from "~/http/api.server";
import { clientAddress } from "~/http/auth.server";
import { parseApiBody } from "~/http/body.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";
import { owningHeaders } from "~/http/owned-entries.server";

export async function loader() {
  return methodNotAllowed("POST");
}

/**
 * POST /api/v1/enquiry/continue/verify {phone, code}: the code sent by
 * /api/v1/enquiry/continue. 200 {data, message} with the entry (the public
 * view and the owner's details; an unverified entry is verified and drawn now)
 * and the cookie of the entries this browser owns; 422 "OTP is required" /
 * "Invalid OTP" under errors.code and errors.otp, the same for a wrong code and
 * a phone that is not registered; 429 when rate limited.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const { phone, code } = await parseApiBody(request, continueVerifySchema);
  const opened = checkContinueCode({ channel: "public", address: clientAddress(request) }, phone, code);
  if (!opened.ok) {
    const errors = opened.errors.code;
    return apiFailure(errors ? { ...opened, errors: { ...opened.errors, otp: errors } } : opened);
  }
  const entry = opened.preregistration;
  return apiData(ownerView(entry), CONTINUE_MESSAGES.opened, {
    headers: await owningHeaders(request, entry.slug),
  });
}
