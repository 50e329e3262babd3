import type { ActionFunctionArgs } from "@remix-run/node";
import { sendContinueCode } from "~/models/preregistration-verify.server";
import { continueSendSchema } from "~/schemas/preregistration";
import { apiData } from "~/http/api.server";
import { clientAddress } from "~/http/auth.server";
import { parseApiBody } from "~/http/body.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";
import { journeyHeader } from "~/http/journey.server";

export async function loader() {
  return methodNotAllowed("POST");
}

/**
 * POST /api/v1/enquiry/continue {phone}: the owner of a phone that is already
 * pre-registered asks for a code to that phone. 200 {data: {phone (masked),
 * resend_at}, message} whether or not the phone is registered (a code is sent
 * only when it is); 422 for a phone that is not a mobile number; 429 when asked
 * again within 60 s, more than 5 times an hour for the phone, or too often from
 * the address.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const { phone } = await parseApiBody(request, continueSendSchema);
  const sent = sendContinueCode({ channel: "public", address: clientAddress(request) }, phone);
  if (!sent.ok) return apiFailure(sent);
  // The code check that follows is a journey a busy server still serves (app/http/journey.server.ts).
  return apiData({ phone: sent.phone, resend_at: sent.resendAt }, sent.message, {
    headers: { "Set-Cookie": await journeyHeader() },
  });
}
