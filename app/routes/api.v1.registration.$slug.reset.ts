import type { ActionFunctionArgs } from "@remix-run/node";
import { resetRegistrationCode } from "~/models/registration.server";
import { apiData, requireApiUser } from "~/http/api.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/**
 * POST /api/v1/registration/{slug}/reset: sends the customer a new purchase
 * code (within the code rules) and answers "Incorrect Code. Please Try again".
 * data.sent tells whether a new code left; retry_after_seconds when it did not.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request, "read-registration");
  const res = await resetRegistrationCode(user, params.slug!);
  if (!res.ok) return apiFailure(res);
  return apiData({ sent: res.sent, retry_after_seconds: res.retryAfterSeconds }, res.message);
}

/** Not a call to read: 405 with Allow. */
export const loader = () => methodNotAllowed("POST");
