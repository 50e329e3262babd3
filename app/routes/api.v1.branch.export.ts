import type { LoaderFunctionArgs } from "@remix-run/node";
import { BRANCH_COLUMNS, exportBranches } from "~/models/branch.server";
import { requireStaff } from "~/http/staff-request.server";
import { xlsDownload } from "~/http/xls-download.server";
import { methodNotAllowed } from "~/http/http.server";

/**
 * GET /api/v1/branch/export?search= (read-branch) → Branches.xls: the list's
 * rows with its search applied (bearer token or back-office session).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStaff(request, "read-branch");
  const params = new URL(request.url).searchParams;
  const rows = exportBranches(user.scope, { search: params.get("search[value]") ?? params.get("search") });
  return xlsDownload(request, { filename: "Branches.xls", sheet: "Branches", columns: BRANCH_COLUMNS, rows });
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
