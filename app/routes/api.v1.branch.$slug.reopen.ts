import type { ActionFunctionArgs } from "@remix-run/node";
import { reopenBranch, presentBranch } from "~/models/branch.server";
import { apiData, requireApiUser } from "~/http/api.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/**
 * POST /api/v1/branch/{slug}/reopen (update-branch, head office): opens a closed branch again. 409 when it is open.
 * 403 for a branch user; 404 for an unknown slug.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request, "update-branch");
  const result = reopenBranch(user, params.slug ?? "");
  return result.ok ? apiData(presentBranch(result.branch), "Branch reopened.") : apiFailure(result);
}

/** Not a call to read: 405 with Allow. */
export const loader = () => methodNotAllowed("POST");
