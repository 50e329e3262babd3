import type { ActionFunctionArgs } from "@remix-run/node";
import { firstThrill, totalPrize } from "~/models/prize-constants";
import { publicView, verifyPreregistration } from "~/models/preregistration.server";
import { apiData, apiError, notFound, readForm } from "~/utils/api.server";

export async function loader() {
  return apiError(405, "Method not allowed.");
}

/**
 * POST /api/v1/enquiry/{id}/verify {code}: a correct code verifies the entry and
 * draws its second thrill (once). 422 "OTP is required" / "Invalid OTP" (also
 * expired or used up) under errors.code (and errors.otp); 429 when rate limited.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed.");
  const form = await readForm(request).catch(() => new FormData());
  const result = await verifyPreregistration(params.id ?? "", form.get("code"), undefined, {
    clientAddress: context.clientAddress,
  });
  if (result.ok) {
    const entry = result.preregistration;
    return apiData(
      {
        ...publicView(entry),
        draw: { amount: result.draw.amount, first_thrill: firstThrill(entry), total_prize: totalPrize(entry) },
      },
      "Your phone number has been verified.",
    );
  }
  if (result.reason === "not_found") return notFound("Pre-registration");
  if (result.reason === "rate_limited") return apiError(429, result.message);
  return apiError(422, result.message, { code: [result.message], otp: [result.message] });
}
