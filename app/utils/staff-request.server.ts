/**
 * Resource routes that a browser link also opens (downloads, print data): a
 * bearer token is checked like every API call (401/403); without one, the
 * back-office session is checked like every admin page (/login, /admin).
 */
import { requireApiUser } from "./api.server";
import { requirePermission, type Staff } from "./auth.server";
import type { Requirement } from "./permissions";

export async function requireStaff(request: Request, permission: Requirement): Promise<Staff> {
  if (request.headers.has("Authorization")) return requireApiUser(request, permission);
  return requirePermission(request, permission);
}
