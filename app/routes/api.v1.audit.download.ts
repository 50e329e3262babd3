import type { LoaderFunctionArgs } from "@remix-run/node";
import { AUDIT_COLUMNS, exportAudit } from "~/models/audit.server";
import { auditFiltersSchema } from "~/schemas/audit";
import { EVERY_PERMISSION } from "~/utils/permissions";
import { apiQuery } from "~/http/query.server";
import { xlsDownload } from "~/http/xls-download.server";
import { requireStaff } from "~/http/staff-request.server";
import { methodNotAllowed } from "~/http/http.server";

/** GET /api/v1/audit/download?action&entity_type&user&from&to → AuditTrail.xls (users holding every permission). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request, EVERY_PERMISSION);
  const filters = apiQuery(new URL(request.url).searchParams, auditFiltersSchema);
  return xlsDownload(request, {
    filename: "AuditTrail.xls",
    sheet: "AuditTrail",
    columns: AUDIT_COLUMNS,
    rows: exportAudit(filters),
  });
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
