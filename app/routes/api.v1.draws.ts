import type { LoaderFunctionArgs } from "@remix-run/node";
import { drawFilters } from "~/components/scheme/filters.server";
import { listDraws } from "~/models/prize-draw.server";
import { requireApiUser, apiList } from "~/utils/api.server";
import { parseTableParams } from "~/utils/datatable.server";

/**
 * GET /api/v1/draws: the draw audit (DataTables), each draw with the pools it
 * considered and every value rolled; filters from, to (Kathmandu dates),
 * pool_type, branch_id, outcome, thrill.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "manage-allocation");
  const params = new URL(request.url).searchParams;
  return apiList(listDraws(user.scope, parseTableParams(params), drawFilters(params)));
}
