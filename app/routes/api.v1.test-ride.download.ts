import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportTestRides, TEST_RIDE_COLUMNS } from "~/models/test-ride.server";
import { testRideFiltersSchema } from "~/schemas/test-ride";
import { apiQuery } from "~/http/query.server";
import { requireStaff } from "~/http/staff-request.server";
import { xlsDownload } from "~/http/xls-download.server";
import { methodNotAllowed } from "~/http/http.server";

/**
 * GET /api/v1/test-ride/download?from&to (a day or a day and hour; from_hour/to_hour as the list's form
 * sends them) → TestRides.xls (bearer token or back-office session): the rows of the list with the same
 * filter, read by the list's own schema (422 for a filter that does not read).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStaff(request, null);
  const filters = apiQuery(new URL(request.url).searchParams, testRideFiltersSchema);
  const rows = exportTestRides(user.scope, filters);
  return xlsDownload(request, { filename: "TestRides.xls", sheet: "TestRides", columns: TEST_RIDE_COLUMNS, rows });
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
