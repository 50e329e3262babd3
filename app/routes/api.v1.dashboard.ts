import type { LoaderFunctionArgs } from "@remix-run/node";
import { dashboardStats } from "~/models/dashboard.server";
import { apiData, requireApiUser } from "~/http/api.server";
import { methodNotAllowed } from "~/http/http.server";

/**
 * GET /api/v1/dashboard (the spec leaves this path open): the dashboard
 * statistics of spec 000 §3 (total, preregistrations, preregistrations_today,
 * preregistrations_yesterday, sales_today, sales_yesterday, test_rides,
 * test_rides_today, test_rides_yesterday) plus date and changes (percent
 * against yesterday, 2 decimals). Branch users get their branch's figures.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  return apiData(dashboardStats(user.scope));
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
