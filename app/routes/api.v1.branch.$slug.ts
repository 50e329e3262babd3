import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { BRANCH_ERRORS, deleteBranch, getBranch, presentBranch, updateBranch } from "~/models/branch.server";
import { fail } from "~/utils/failure";
import { branchSchema } from "~/schemas/branch";
import { apiData, requireApiUser } from "~/http/api.server";
import { currentValues, parseApiUpdate } from "~/http/body.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/**
 * GET /api/v1/branch/{slug} (read-branch): the branch with registrations_count,
 * closed, usage (what names it: users, preregistrations, registrations,
 * test_rides, allocations) and deletable. 404 for an unknown slug or one out
 * of a branch user's reach.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "read-branch");
  const branch = getBranch(user.scope, params.slug ?? "");
  if (!branch) return apiFailure(fail.notFound(BRANCH_ERRORS.notFound));
  const { phones: _p, mobiles: _m, ...rest } = branch;
  return apiData({ ...presentBranch(rest), usage: rest.usage, deletable: rest.deletable });
}

/**
 * POST /api/v1/branch/{slug} (update-branch): the branch's fields → 200; 422.
 * DELETE /api/v1/branch/{slug} (update-branch, head office): 200 for a branch
 * nothing names; 409 with what names it otherwise (close it instead:
 * POST /api/v1/branch/{slug}/close).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireApiUser(request, "update-branch");
  const slug = params.slug ?? "";
  if (request.method === "DELETE") {
    const result = deleteBranch(user, slug);
    return result.ok ? apiData(null, "Branch deleted.") : apiFailure(result);
  }
  if (request.method === "POST" || request.method === "PATCH" || request.method === "PUT") {
    const current = getBranch(user.scope, slug);
    if (!current) return apiFailure(fail.notFound(BRANCH_ERRORS.notFound));
    const value = await parseApiUpdate(request, branchSchema, currentValues(branchSchema, current));
    const result = updateBranch(user, slug, value);
    if (!result.ok) return apiFailure(result);
    return apiData(presentBranch(getBranch(user.scope, result.branch.slug) ?? result.branch), "Branch updated.");
  }
  return methodNotAllowed("GET", "POST", "PUT", "PATCH", "DELETE");
}
