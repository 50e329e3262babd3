import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportPreregistrations } from "~/models/preregistration-admin.server";
import { PREREGISTRATION_COLUMNS } from "~/models/preregistration-columns";
import { preregistrationFiltersSchema, preregistrationSearchParam } from "~/schemas/preregistration";
import { apiQuery } from "~/http/query.server";
import { xlsDownload } from "~/http/xls-download.server";
import { requireStaff } from "~/http/staff-request.server";
import { methodNotAllowed } from "~/http/http.server";

/** GET /api/v1/preregistration/download?bike_model&branch&from&to&prize&status&phone → Preregistrations.xls; 422 for a filter the list would refuse. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStaff(request, "read-registration");
  const params = new URL(request.url).searchParams;
  const filters = apiQuery(params, preregistrationFiltersSchema, preregistrationSearchParam(params));
  const rows = exportPreregistrations(user.scope, filters);
  return xlsDownload(request, {
    filename: "Preregistrations.xls",
    sheet: "Preregistrations",
    columns: PREREGISTRATION_COLUMNS,
    rows,
  });
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
