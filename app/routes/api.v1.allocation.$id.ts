import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { reachesBranch } from "~/components/scheme/filters.server";
import { AllocationError, deleteAllocation, getAllocation, updateAllocationCount } from "~/models/allocation.server";
import type { Staff } from "~/utils/auth.server";
import { apiData, apiError, notFound, readForm, requireApiUser, validationError } from "~/utils/api.server";

const WHAT = "Scheme";

/** The pool of the URL when the caller may reach it. */
function reachable(user: Staff, id: string | undefined) {
  const n = Number(id);
  const row = Number.isSafeInteger(n) && n > 0 ? getAllocation(n) : null;
  return row && reachesBranch(user.scope, row.branch_id) ? row : null;
}

const present = ({ created_by: _by, ...row }: NonNullable<ReturnType<typeof getAllocation>>) => ({
  ...row,
  remaining: row.count - row.paid,
});

/** GET /api/v1/allocation/{id}: one pool with paid and remaining. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "manage-allocation");
  const row = reachable(user, params.id);
  return row ? apiData(present(row)) : notFound(WHAT);
}

/**
 * DELETE /api/v1/allocation/{id}: 200; 409 once the pool has paid out a prize.
 * PATCH (or POST) /api/v1/allocation/{id} {count}: changes the count; 422 below
 * what it has paid or outside 1 to 5.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireApiUser(request, "manage-allocation");
  const row = reachable(user, params.id);
  if (!row) return notFound(WHAT);
  try {
    if (request.method === "DELETE") {
      deleteAllocation(row.id);
      return apiData(null, "Scheme deleted.");
    }
    if (request.method === "PATCH" || request.method === "POST") {
      const form = await readForm(request);
      return apiData(present(updateAllocationCount(row.id, form.get("count"))), "Scheme updated.");
    }
    return apiError(405, "Method not allowed.");
  } catch (err) {
    if (!(err instanceof AllocationError)) throw err;
    if (err.code === "not_found") return notFound(WHAT);
    if (err.code === "paid") return apiError(409, err.message);
    return validationError(err.fieldErrors, err.message);
  }
}
