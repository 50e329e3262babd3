import type { LoaderFunctionArgs } from "@remix-run/node";
import { listRoleMatrix } from "~/models/role.server";
import { holdsAll } from "~/models/dealer-user.server";
import { apiData, requireApiUser } from "~/http/api.server";
import { methodNotAllowed } from "~/http/http.server";

/**
 * GET /api/v1/role (read-user): every role with its permission list, its number
 * of users, whether it is locked (Super Admin keeps every permission) and
 * whether the caller may give it to a user (`assignable`: the caller holds all
 * of its permissions).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "read-user");
  return apiData(
    listRoleMatrix().map((r) => ({
      id: r.id,
      slug: r.slug,
      title: r.title,
      permissions: r.permissions,
      users: r.users,
      locked: r.locked,
      assignable: holdsAll(user.permissions, r.permissions),
    })),
  );
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
