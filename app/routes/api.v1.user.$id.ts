import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { fail } from "~/utils/failure";
import { deleteUser, findUser, updateUser, USER_ERRORS } from "~/models/dealer-user.server";
import { userUpdateSchema } from "~/schemas/user";
import { apiData, requireApiUser } from "~/http/api.server";
import { currentValues, parseApiUpdate } from "~/http/body.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";
import { presentUser } from "./api.v1.user";

/** GET /api/v1/user/{id} ({id} is the user's slug): one user the caller reaches, with permissions. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "read-user");
  const found = findUser(user.scope, params.id!);
  return found ? apiData(presentUser(found)) : apiFailure(fail.notFound(USER_ERRORS.notFound));
}

/**
 * POST (or PUT/PATCH) /api/v1/user/{id} {user fields}: update (update-user); an
 * absent password keeps the old one. DELETE /api/v1/user/{id}: delete
 * (update-user); 403 for oneself or a user holding permissions the caller
 * lacks, 409 for the last head-office user holding every permission.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireApiUser(request, "update-user");
  const slug = params.id!;
  if (request.method === "DELETE") {
    const result = deleteUser(user, slug);
    return result.ok ? apiData(null, "User deleted.") : apiFailure(result);
  }
  if (request.method === "POST" || request.method === "PUT" || request.method === "PATCH") {
    const current = findUser(user.scope, slug);
    if (!current) return apiFailure(fail.notFound(USER_ERRORS.notFound));
    const value = await parseApiUpdate(request, userUpdateSchema, currentValues(userUpdateSchema, current));
    const result = await updateUser(user, slug, value);
    return result.ok ? apiData(presentUser(result.user), "User updated.") : apiFailure(result);
  }
  return methodNotAllowed("GET", "POST", "PUT", "PATCH", "DELETE");
}
