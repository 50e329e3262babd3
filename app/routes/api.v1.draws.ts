import type { LoaderFunctionArgs } from "@remix-run/node";
import { listDraws } from "~/models/draw-audit.server";
import { requireApiUser, apiList } from "~/http/api.server";
import { parseTableParams } from "~/utils/datatable.server";
import { apiQuery } from "~/http/query.server";
import { drawFiltersSchema } from "~/schemas/draw";
import { methodNotAllowed } from "~/http/http.server";

/**
 * GET /api/v1/draws: the draw audit (DataTables), each draw with the pools it
 * considered and every value rolled; filters from, to (Kathmandu days or
 * "yyyy-MM-dd HH:mm"; 422 for anything else), pool_type, branch_id, outcome, thrill.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "manage-allocation");
  const params = new URL(request.url).searchParams;
  return apiList(listDraws(user.scope, parseTableParams(params), apiQuery(params, drawFiltersSchema)));
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
