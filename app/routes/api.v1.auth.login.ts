import type { ActionFunctionArgs } from "@remix-run/node";
import { loginSchema } from "~/schemas/auth";
import { apiData, issueToken } from "~/http/api.server";
import { checkCredentials, clientAddress } from "~/http/auth.server";
import { parseApiBody } from "~/http/body.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/**
 * POST /api/v1/auth/login: email, password, remember_me → access_token and user (with its permissions).
 * 401 "Invalid Credentials"; 429 with Retry-After once the address or the account is locked.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const value = await parseApiBody(request, loginSchema);
  const result = await checkCredentials(value.email, value.password, clientAddress(request));
  if (!result.ok) return apiFailure(result);
  const { token, expires_at } = issueToken(result.user.id, value.remember_me);
  const body = { access_token: token, token_type: "Bearer", expires_at, user: result.user };
  return apiData(body, "Logged in.", {}, body);
}

/** Not a call to read: 405 with Allow. */
export const loader = () => methodNotAllowed("POST");
