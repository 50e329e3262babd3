import type { LoaderFunctionArgs } from "@remix-run/node";
import { listGrants } from "~/models/counter-grant.server";
import { grantFiltersSchema } from "~/schemas/grants";
import { apiList, requireApiUser } from "~/http/api.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";
import { parseListQuery } from "~/http/list-query.server";

/**
 * GET /api/v1/preregistration/grants?branch&from&to (read-registration) and the DataTables parameters: the
 * counter grants (decision 5), newest first: {granted_at, branch, granted_by, preregistration}. Head office
 * reads every branch's (and filters by branch); a branch user its own. 422 for a filter that does not read.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "read-registration");
  const query = parseListQuery(new URL(request.url).searchParams, grantFiltersSchema);
  if (!query.ok) return apiFailure(query);
  return apiList(listGrants(user.scope, query.table, query.filters));
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
