import type { ActionFunctionArgs } from "@remix-run/node";
import { drawCoupon } from "~/models/registration.server";
import { apiData, apiError, requireApiUser } from "~/utils/api.server";

/**
 * POST /api/v1/registration/{slug}/draw: the third-thrill draw of a confirmed
 * registration (drawing again returns the first result). data.coupon.amount is
 * the coupon, data.prizes the breakdown with the total.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed.");
  const user = await requireApiUser(request, "create-registration");
  const res = await drawCoupon(user.scope, params.slug!);
  if (!res.ok) return apiError(res.status, res.message, res.errors);
  return apiData(res.registration, res.created ? "Coupon drawn." : "The coupon was already drawn.");
}
