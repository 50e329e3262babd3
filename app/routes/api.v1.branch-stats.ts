import type { LoaderFunctionArgs } from "@remix-run/node";
import { branchStats } from "~/models/dashboard.server";
import { apiData, requireApiUser } from "~/http/api.server";
import { methodNotAllowed } from "~/http/http.server";

/**
 * GET /api/v1/branch-stats: per branch (id, slug, title, city) its
 * registrations_count, sales_today, sales_yesterday, preregistrations_count and
 * test_rides_count. Branch users get their own branch only.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  return apiData(branchStats(user.scope));
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
