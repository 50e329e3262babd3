import type { ActionFunctionArgs } from "@remix-run/node";
import { firstThrill, totalPrize } from "~/utils/prize-constants";
import { publicView } from "~/models/preregistration-read.server";
import { verifyPreregistration } from "~/models/preregistration-verify.server";
import { verifySchema } from "~/schemas/preregistration";
import { apiData } from "~/http/api.server";
import { clientAddress } from "~/http/auth.server";
import { parseValue, readApiBody } from "~/http/body.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";
import { owningHeaders } from "~/http/owned-entries.server";

export async function loader() {
  return methodNotAllowed("POST");
}

/**
 * POST /api/v1/enquiry/{id}/verify {code}: a correct code verifies the entry and
 * draws its second thrill (once). 422 "OTP is required" / "Invalid OTP" (also
 * expired or used up) under errors.code and errors.otp (spec 000 §4 names the
 * otp field); 429 when rate limited; 404 for an unknown slug.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const body = await readApiBody(request, { optional: true });
  const parsed = await parseValue(body, verifySchema);
  if (!parsed.ok) return apiFailure(parsed);
  const result = await verifyPreregistration(
    { channel: "public", address: clientAddress(request) },
    params.id ?? "",
    parsed.value.code,
  );
  if (!result.ok) {
    const code = result.errors.code;
    return apiFailure(code ? { ...result, errors: { ...result.errors, otp: code } } : result);
  }
  const drawn = await result.draw();
  const entry = { ...result.preregistration, prize: drawn.amount };
  return apiData(
    {
      ...publicView(entry),
      draw: { amount: drawn.amount, first_thrill: firstThrill(entry), total_prize: totalPrize(entry) },
    },
    "Your phone number has been verified.",
    // A right code proves the entry: this browser owns it from now on (not an entry verified before).
    result.alreadyVerified ? {} : { headers: await owningHeaders(request, entry.slug) },
  );
}
