import type { LoaderFunctionArgs } from "@remix-run/node";
import { listFlags } from "~/models/integrity-desk.server";
import { flagFiltersSchema } from "~/schemas/integrity";
import { apiList, requireApiUser } from "~/http/api.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";
import { parseListQuery } from "~/http/list-query.server";

/**
 * GET /api/v1/integrity/flags?reason&status&branch&user&from&to (review-integrity, head office only) and the
 * DataTables parameters: the integrity flags (decision 21), strongest first and then newest:
 * {id, reason, subject_type, subject, branch, user, strength, evidence, status, raised_at, …}. A branch user
 * is refused (403) whatever its role holds. 422 for a filter that does not read.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "review-integrity");
  const query = parseListQuery(new URL(request.url).searchParams, flagFiltersSchema);
  if (!query.ok) return apiFailure(query);
  return apiList(listFlags(user.scope, query.table, query.filters));
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
