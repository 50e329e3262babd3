import type { LoaderFunctionArgs } from "@remix-run/node";
import { DRAW_COLUMNS, exportDraws } from "~/models/draw-audit.server";
import { drawFiltersSchema } from "~/schemas/draw";
import { requireStaff } from "~/http/staff-request.server";
import { xlsDownload } from "~/http/xls-download.server";
import { apiQuery } from "~/http/query.server";
import { methodNotAllowed } from "~/http/http.server";

/** GET /api/v1/draws/download?from&to (day, or day and hour)&pool_type&branch_id&outcome&search → Draws.xls (bearer token or back-office session). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStaff(request, "manage-allocation");
  const params = new URL(request.url).searchParams;
  const rows = exportDraws(
    user.scope,
    apiQuery(params, drawFiltersSchema),
    (params.get("search") ?? "").trim().slice(0, 100),
  );
  return xlsDownload(request, { filename: "Draws.xls", sheet: "Draws", columns: DRAW_COLUMNS, rows });
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
