import type { LoaderFunctionArgs } from "@remix-run/node";
import { listRoles, permissionsOfRole } from "~/models/user.server";
import { apiData, requireApiUser } from "~/utils/api.server";

/** GET /api/v1/role: roles with their permission lists (read-user). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request, "read-user");
  return apiData(listRoles().map((r) => ({ ...r, permissions: permissionsOfRole(r.id) })));
}
