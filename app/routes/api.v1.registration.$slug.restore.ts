import type { ActionFunctionArgs } from "@remix-run/node";
import { restoreRegistration } from "~/models/registration.server";
import { apiData, requireApiUser } from "~/http/api.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/** POST /api/v1/registration/{slug}/restore: brings a deleted registration back (409 when its numbers were taken). */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request, "delete-registration");
  const res = restoreRegistration(user, params.slug!);
  return res.ok ? apiData(res.registration, "Registration restored.") : apiFailure(res);
}

/** Not a call to read: 405 with Allow. */
export const loader = () => methodNotAllowed("POST");
