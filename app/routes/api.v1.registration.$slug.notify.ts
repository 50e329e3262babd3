import type { ActionFunctionArgs } from "@remix-run/node";
import { notifyRegistration } from "~/models/registration.server";
import { apiData, apiError, requireApiUser } from "~/utils/api.server";

/** POST /api/v1/registration/{slug}/notify: SMS with the prize summary to the customer. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed.");
  const user = await requireApiUser(request, "create-registration");
  const res = await notifyRegistration(user.scope, params.slug!);
  if (!res.ok) return apiError(res.status, res.message, res.errors);
  if (res.status === "failed") return apiError(502, `The SMS could not be sent: ${res.error ?? "unknown error"}`);
  return apiData({ status: res.status }, "The customer was notified by SMS.");
}
