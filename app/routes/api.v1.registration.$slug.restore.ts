import type { ActionFunctionArgs } from "@remix-run/node";
import { findRegistration, restoreRegistration } from "~/models/registration.server";
import { apiData, apiError, requireApiUser } from "~/utils/api.server";

/** POST /api/v1/registration/{slug}/restore: brings a deleted registration back. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed.");
  const user = await requireApiUser(request, "delete-registration");
  const res = restoreRegistration(user.scope, params.slug!);
  if (!res.ok) return apiError(res.status, res.message, res.errors);
  return apiData(findRegistration(user.scope, params.slug!), "Registration restored.");
}
