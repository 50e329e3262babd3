/**
 * Resource routes that a browser link also opens (downloads, print data): a
 * call with a bearer token, or one that asks for JSON (Accept:
 * application/json without text/html), is answered like every API call (JSON
 * 401/403); a browser following a link without a token keeps the back-office
 * rules (/login, then /admin).
 */
import { apiFailure } from "./http.server";
import { fail } from "~/utils/failure";
import { requireApiUser } from "./api.server";
import { getOptionalUser, requirePermission, type Staff } from "./auth.server";
import { can, type Requirement } from "~/utils/permissions";

function wantsJson(request: Request): boolean {
  const accept = request.headers.get("Accept") ?? "";
  return accept.includes("application/json") && !accept.includes("text/html");
}

export async function requireStaff(request: Request, permission: Requirement): Promise<Staff> {
  if (request.headers.has("Authorization")) return requireApiUser(request, permission);
  if (wantsJson(request)) {
    const user = await getOptionalUser(request);
    if (!user) throw apiFailure(fail.unauthenticated("Unauthenticated."));
    if (!can(user, permission)) throw apiFailure(fail.forbidden("This action is unauthorized."));
  }
  return requirePermission(request, permission);
}
