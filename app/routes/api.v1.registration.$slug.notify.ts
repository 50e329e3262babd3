import type { ActionFunctionArgs } from "@remix-run/node";
import { notifyRegistration } from "~/models/registration.server";
import { apiData, requireApiUser } from "~/http/api.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/**
 * POST /api/v1/registration/{slug}/notify: the prize summary SMS to the
 * customer, queued for the sender (data.status "queued"; its outcome shows in
 * the outbox). 409 until the coupon is drawn.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request, "create-registration");
  const res = notifyRegistration(user, params.slug!);
  if (!res.ok) return apiFailure(res);
  return apiData({ status: res.status }, "The prize summary is on its way to the customer by SMS.");
}

/** Not a call to read: 405 with Allow. */
export const loader = () => methodNotAllowed("POST");
