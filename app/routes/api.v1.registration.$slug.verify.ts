import type { ActionFunctionArgs } from "@remix-run/node";
import { confirmRegistration } from "~/models/registration.server";
import { registrationCodeSchema } from "~/schemas/registration";
import { apiData, requireApiUser } from "~/http/api.server";
import { parseApiBody } from "~/http/body.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/**
 * POST /api/v1/registration/{slug}/verify {code}: confirms the purchase with
 * the code the customer received. A wrong code answers 422 with
 * errors.code = ["Incorrect Code. Please Try again"]; call reset for a new code.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request, "read-registration");
  const value = await parseApiBody(request, registrationCodeSchema);
  const res = confirmRegistration(user, params.slug!, value.code);
  if (!res.ok) return apiFailure(res);
  return apiData(
    res.registration,
    res.alreadyConfirmed ? "The purchase was already confirmed." : "Purchase confirmed.",
  );
}

/** Not a call to read: 405 with Allow. */
export const loader = () => methodNotAllowed("POST");
