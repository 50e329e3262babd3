import type { LoaderFunctionArgs } from "@remix-run/node";
import { parseRegistrationQuery } from "~/http/list-query.server";
import { listDeletedRegistrations } from "~/models/registration-list.server";
import { requireApiUser, apiList } from "~/http/api.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/** GET /api/v1/registration/deleted: the trash (DataTables, page length 10), branch scoped; 422 for a bad filter. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "delete-registration");
  const query = parseRegistrationQuery(new URL(request.url).searchParams);
  if (!query.ok) return apiFailure(query);
  return apiList(listDeletedRegistrations(user.scope, query.table, query.filters));
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
