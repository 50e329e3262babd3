import type { ActionFunctionArgs } from "@remix-run/node";
import { apiData, requireApiUser, revokeToken } from "~/http/api.server";
import { methodNotAllowed } from "~/http/http.server";

/** POST /api/v1/auth/logout: revokes the bearer token. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  await requireApiUser(request);
  revokeToken(request);
  return apiData(null, "Logged out.");
}

/** Not a call to read: 405 with Allow. */
export const loader = () => methodNotAllowed("POST");
