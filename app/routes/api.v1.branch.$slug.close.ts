import type { ActionFunctionArgs } from "@remix-run/node";
import { closeBranch, presentBranch } from "~/models/branch.server";
import { apiData, requireApiUser } from "~/http/api.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/**
 * POST /api/v1/branch/{slug}/close (update-branch, head office): closes the branch: it leaves the public showrooms, the book-a-ride cascade and every new-record select at once; its records keep its name. 409 when already closed.
 * 403 for a branch user; 404 for an unknown slug.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request, "update-branch");
  const result = closeBranch(user, params.slug ?? "");
  return result.ok ? apiData(presentBranch(result.branch), "Branch closed.") : apiFailure(result);
}

/** Not a call to read: 405 with Allow. */
export const loader = () => methodNotAllowed("POST");
