import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportGrants, GRANT_COLUMNS } from "~/models/counter-grant.server";
import { grantFiltersSchema } from "~/schemas/grants";
import { apiQuery } from "~/http/query.server";
import { xlsDownload } from "~/http/xls-download.server";
import { requireStaff } from "~/http/staff-request.server";
import { methodNotAllowed } from "~/http/http.server";

/**
 * GET /api/v1/preregistration/grants/download?branch&from&to (read-registration; bearer token or back-office
 * session) → Grants.xls: the list's rows for the same filters, read by the list's own schema (422 otherwise).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStaff(request, "read-registration");
  const filters = apiQuery(new URL(request.url).searchParams, grantFiltersSchema);
  const rows = exportGrants(user.scope, filters);
  return xlsDownload(request, { filename: "Grants.xls", sheet: "Grants", columns: GRANT_COLUMNS, rows });
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
