import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportTestRides, TEST_RIDE_COLUMNS } from "~/models/test-ride.server";
import { requireStaff } from "~/utils/staff-request.server";
import { xlsDownload } from "~/utils/spreadsheet.server";

/** GET /api/v1/test-ride/download?from&to → TestRides.xls (bearer token or back-office session). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStaff(request, null);
  const params = new URL(request.url).searchParams;
  const rows = exportTestRides(user.scope, { from: params.get("from"), to: params.get("to") });
  return xlsDownload(request, { filename: "TestRides.xls", sheet: "TestRides", columns: TEST_RIDE_COLUMNS, rows });
}
