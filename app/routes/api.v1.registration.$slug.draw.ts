import type { ActionFunctionArgs } from "@remix-run/node";
import { drawCoupon } from "~/models/registration.server";
import { apiData, requireApiUser } from "~/http/api.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/**
 * POST /api/v1/registration/{slug}/draw: the third-thrill draw of a confirmed
 * registration (drawing again returns the first result). data.coupon.amount is
 * the coupon, data.prizes the breakdown with the total. 409 until confirmed.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request, "create-registration");
  const res = await drawCoupon(user, params.slug!);
  if (!res.ok) return apiFailure(res);
  return apiData(res.registration, res.created ? "Coupon drawn." : "The coupon was already drawn.");
}

/** Not a call to read: 405 with Allow. */
export const loader = () => methodNotAllowed("POST");
