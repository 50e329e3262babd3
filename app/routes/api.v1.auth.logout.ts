import type { ActionFunctionArgs } from "@remix-run/node";
import { apiData, requireApiUser, revokeToken } from "~/http/api.server";

/** POST /api/v1/auth/logout: revokes the bearer token. */
export async function action({ request }: ActionFunctionArgs) {
  await requireApiUser(request);
  revokeToken(request);
  return apiData(null, "Logged out.");
}
