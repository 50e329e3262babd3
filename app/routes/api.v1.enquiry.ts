import type { ActionFunctionArgs } from "@remix-run/node";
import { guardPublicPost } from "~/http/public-guard.server";
import { createPreregistration } from "~/models/preregistration.server";
import { publicView } from "~/models/preregistration-read.server";
import { publicPreregistrationSchema } from "~/schemas/preregistration";
import { apiData } from "~/http/api.server";
import { clientAddress } from "~/http/auth.server";
import { BODY_LIMITS, readApiBody } from "~/http/body.server";
import { fileField } from "~/http/echo.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";
import { owningHeaders } from "~/http/owned-entries.server";
import { referralOf } from "~/http/referral.server";

export async function loader() {
  return methodNotAllowed("POST");
}

/**
 * POST /api/v1/enquiry (multipart, or JSON without the screenshot): a public
 * pre-registration. 201 {data, message} with the public view (slug, masked
 * phone); 422 {message, errors}; 403 while registration is closed; 429 when
 * rate limited. The same form_token (or Idempotency-Key header) twice gives the
 * first record back (200). A taken phone or a citizenship/PAN with a pending
 * purchase answers the message alone (no slug of the other entry). The answer
 * sets the cookie of the entries this browser owns.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const body = await readApiBody(request, { limit: BODY_LIMITS.upload });
  const address = clientAddress(request);
  const parsed = await guardPublicPost(body, publicPreregistrationSchema, {
    address,
    limit: "enquiry-ip",
    captcha: true,
  });
  if (!parsed.ok) return apiFailure(parsed);
  const result = await createPreregistration(
    { channel: "public", address, referral: referralOf(request) },
    parsed.value,
    { file: fileField(body.kind === "form" ? body.form : null, "screenshot"), ref: parsed.value.screenshot_ref },
    { formToken: request.headers.get("Idempotency-Key") },
  );
  if (!result.ok) return apiFailure(result);
  return apiData(
    publicView(result.preregistration),
    "Pre-registration saved. Please verify your phone number with the code sent by SMS.",
    {
      status: result.duplicate ? 200 : 201,
      headers: await owningHeaders(request, result.preregistration.slug),
    },
  );
}
