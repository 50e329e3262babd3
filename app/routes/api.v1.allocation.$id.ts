import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { Allocation } from "@db/schema";
import { ALLOCATION_ERRORS, deleteAllocation, getAllocation, updateAllocationCount } from "~/models/allocation.server";
import { fail } from "~/utils/failure";
import { allocationCountSchema } from "~/schemas/allocation";
import { apiData, requireApiUser } from "~/http/api.server";
import { parseApiBody } from "~/http/body.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/** A pool as the API shows it: without its creator, with what remains. */
export const presentAllocation = ({ created_by: _by, ...row }: Allocation) => ({
  ...row,
  remaining: row.count - row.paid,
});

/** GET /api/v1/allocation/{id}: one pool the caller reaches, with paid and remaining. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "manage-allocation");
  const row = getAllocation(user.scope, Number(params.id));
  return row ? apiData(presentAllocation(row)) : apiFailure(fail.notFound(ALLOCATION_ERRORS.notFound));
}

/**
 * DELETE /api/v1/allocation/{id}: 200; 409 once the pool has paid out a prize.
 * PATCH (or POST) /api/v1/allocation/{id} {count}: changes the count; 422 below
 * what it has paid or outside 1 to 5. 404 for a pool out of the caller's reach.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireApiUser(request, "manage-allocation");
  const id = Number(params.id);
  if (request.method === "DELETE") {
    const result = deleteAllocation(user, id);
    return result.ok ? apiData(null, "Scheme deleted.") : apiFailure(result);
  }
  if (request.method === "PATCH" || request.method === "POST") {
    const value = await parseApiBody(request, allocationCountSchema);
    const result = updateAllocationCount(user, id, value);
    return result.ok ? apiData(presentAllocation(result.allocation), "Scheme updated.") : apiFailure(result);
  }
  return methodNotAllowed("GET", "POST", "PATCH", "DELETE");
}
