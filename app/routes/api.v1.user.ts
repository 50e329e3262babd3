import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { addUser, listUsers, type UserRow } from "~/models/dealer-user.server";
import { userCreateSchema, userFiltersSchema } from "~/schemas/user";
import { apiData, requireApiUser, apiList } from "~/http/api.server";
import { parseApiBody } from "~/http/body.server";
import { parseTableParams } from "~/utils/datatable.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";
import { apiQuery } from "~/http/query.server";

/** A user as the API shows it: its slug is its id (never the sequential number), no password. */
export const presentUser = <U extends UserRow>(user: U) => {
  const { id: _internal, ...rest } = user as U & { id?: number };
  return { ...rest, id: user.slug };
};

/**
 * GET /api/v1/user: DataTables list of the users the caller reaches (a branch
 * user: its branch's), filters role_id and branch_id (a branch id or
 * "head-office"); 422 for a bad filter.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "read-user");
  const params = new URL(request.url).searchParams;
  const table = listUsers(user.scope, parseTableParams(params), apiQuery(params, userFiltersSchema));
  return apiList({ ...table, data: table.data.map(presentUser) });
}

/** POST /api/v1/user {user fields}: 201 {data, message}; 422 {message, errors}. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireApiUser(request, "create-user");
  if (request.method !== "POST") return methodNotAllowed("GET", "POST");
  const value = await parseApiBody(request, userCreateSchema);
  const result = await addUser(user, value);
  if (!result.ok) return apiFailure(result);
  return apiData(presentUser(result.user), "User created.", { status: 201 });
}
