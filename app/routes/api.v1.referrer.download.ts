import type { LoaderFunctionArgs } from "@remix-run/node";
import { fail } from "~/utils/failure";
import { exportReferrers, REFERRER_COLUMNS } from "~/models/referrer.server";
import { referrerFiltersSchema } from "~/schemas/referrer";
import { apiFailure, methodNotAllowed } from "~/http/http.server";
import { parseQuery } from "~/http/query.server";
import { xlsDownload } from "~/http/xls-download.server";
import { requireStaff } from "~/http/staff-request.server";

/**
 * GET /api/v1/referrer/download?from&to&search (read-registration) →
 * Referrers.xls, the report's rows for the same filters (bearer token or
 * back-office session). A date that does not read answers 422.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStaff(request, "read-registration");
  const { value, errors } = parseQuery(new URL(request.url).searchParams, referrerFiltersSchema);
  if (Object.keys(errors).length) return apiFailure(fail.invalid(errors));
  const rows = exportReferrers(user.scope, value);
  return xlsDownload(request, { filename: "Referrers.xls", sheet: "Referrers", columns: REFERRER_COLUMNS, rows });
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
