import type { ActionFunctionArgs } from "@remix-run/node";
import { loginSchema } from "~/schemas/auth";
import { apiError, issueToken, parseApiBody } from "~/utils/api.server";
import { checkCredentials, LoginError } from "~/utils/auth.server";

/** POST /api/v1/auth/login: email, password, remember_me → access_token and user (with its permissions). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed.");
  const { value } = await parseApiBody(request, loginSchema);
  try {
    const user = await checkCredentials(value.email, value.password, context.clientAddress);
    const { token, expires_at } = issueToken(user.id, value.remember_me);
    const body = { access_token: token, token_type: "Bearer", expires_at, user };
    return Response.json({ ...body, data: body, message: "Logged in." });
  } catch (e) {
    if (e instanceof LoginError) return apiError(401, e.message);
    throw e;
  }
}
