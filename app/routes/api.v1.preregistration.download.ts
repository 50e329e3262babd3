import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  exportPreregistrations,
  PREREGISTRATION_COLUMNS,
  readPreregistrationFilters,
} from "~/models/preregistration-admin.server";
import { xlsDownload } from "~/utils/spreadsheet.server";
import { requireStaff } from "~/utils/staff-request.server";

/** GET /api/v1/preregistration/download?bike_model&branch&from&to&prize&status&phone → Preregistrations.xls. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStaff(request, "read-registration");
  const rows = exportPreregistrations(user.scope, readPreregistrationFilters(new URL(request.url).searchParams));
  return xlsDownload(request, {
    filename: "Preregistrations.xls",
    sheet: "Preregistrations",
    columns: PREREGISTRATION_COLUMNS,
    rows,
  });
}
