import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allocationFilters, reachesBranch } from "~/components/scheme/filters.server";
import { AllocationError, createAllocation, listAllocations } from "~/models/allocation.server";
import { allocationSchema } from "~/schemas/allocation";
import { apiData, apiError, forbidden, parseApiBody, requireApiUser, validationError } from "~/utils/api.server";
import { parseTableParams } from "~/utils/datatable.server";

/** GET /api/v1/allocation: DataTables list with paid and remaining; filters type, branch_id, date. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "manage-allocation");
  const params = new URL(request.url).searchParams;
  return Response.json(listAllocations(parseTableParams(params), allocationFilters(params), user.scope));
}

/**
 * POST /api/v1/allocation {type, branch_id, amount, date, probability, count}:
 * 201 {data, message}; 422 {message, errors} for invalid values; 403 for a
 * branch the caller cannot reach.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireApiUser(request, "manage-allocation");
  if (request.method !== "POST") return apiError(405, "Method not allowed.");
  const { value } = await parseApiBody(request, allocationSchema);
  if (!reachesBranch(user.scope, value.branch_id ?? null)) return forbidden();
  try {
    const { created_by: _by, ...row } = createAllocation(value, user.id);
    return apiData({ ...row, remaining: row.count - row.paid }, "Scheme created.", { status: 201 });
  } catch (err) {
    if (err instanceof AllocationError) return validationError(err.fieldErrors, err.message);
    throw err;
  }
}
