import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportFlags, FLAG_COLUMNS } from "~/models/integrity-desk.server";
import { flagFiltersSchema } from "~/schemas/integrity";
import { apiQuery } from "~/http/query.server";
import { xlsDownload } from "~/http/xls-download.server";
import { requireStaff } from "~/http/staff-request.server";
import { methodNotAllowed } from "~/http/http.server";

/**
 * GET /api/v1/integrity/flags/download?reason&status&branch&user&from&to (review-integrity; bearer token or
 * back-office session) → Flags.xls: the desk's rows for the same filters, strongest first.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStaff(request, "review-integrity");
  const filters = apiQuery(new URL(request.url).searchParams, flagFiltersSchema);
  const rows = exportFlags(user.scope, filters);
  return xlsDownload(request, { filename: "Flags.xls", sheet: "Flags", columns: FLAG_COLUMNS, rows });
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
