import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiData, requireApiUser } from "~/http/api.server";
import { methodNotAllowed } from "~/http/http.server";

/** POST (or GET) /api/v1/auth/me: the user of the bearer token. */
async function me(request: Request) {
  const { scope: _scope, ...user } = await requireApiUser(request);
  return apiData(user);
}

export const action = ({ request }: ActionFunctionArgs) =>
  request.method === "POST" ? me(request) : methodNotAllowed("GET", "POST");
export const loader = ({ request }: LoaderFunctionArgs) => me(request);
