import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { createAllocation, listAllocations } from "~/models/allocation.server";
import { allocationFiltersSchema, allocationSchema } from "~/schemas/allocation";
import { apiData, requireApiUser, apiList } from "~/http/api.server";
import { parseApiBody } from "~/http/body.server";
import { parseTableParams } from "~/utils/datatable.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";
import { apiQuery } from "~/http/query.server";
import { presentAllocation } from "./api.v1.allocation.$id";

/** GET /api/v1/allocation: DataTables list with paid and remaining; filters type, branch_id, date (422 for a date that does not read). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "manage-allocation");
  const params = new URL(request.url).searchParams;
  return apiList(listAllocations(user.scope, parseTableParams(params), apiQuery(params, allocationFiltersSchema)));
}

/**
 * POST /api/v1/allocation {type, branch_id, amount, date, probability, count}:
 * 201 {data, message}; 422 {message, errors} for invalid values or a branch
 * out of the caller's reach.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireApiUser(request, "manage-allocation");
  if (request.method !== "POST") return methodNotAllowed("GET", "POST");
  const value = await parseApiBody(request, allocationSchema);
  const result = createAllocation(user, value);
  if (!result.ok) return apiFailure(result);
  return apiData(presentAllocation(result.allocation), "Scheme created.", { status: 201 });
}
