import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { createBranch, listBranchesTable, presentBranch } from "~/models/branch.server";
import { branchSchema } from "~/schemas/branch";
import { apiData, requireApiUser } from "~/http/api.server";
import { parseApiBody } from "~/http/body.server";
import { parseTableParams } from "~/utils/datatable.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/**
 * GET /api/v1/branch (read-branch): the DataTables list {draw, data,
 * recordsTotal, recordsFiltered, input}; each row every field of spec 001 §3
 * with registrations_count (Total Sales: live registrations) and closed.
 * A branch user gets its own branch only.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "read-branch");
  const table = listBranchesTable(user.scope, parseTableParams(new URL(request.url).searchParams));
  return Response.json({ ...table, data: table.data.map(presentBranch) });
}

/**
 * POST /api/v1/branch (create-branch) {title, state, district, city, location,
 * email, phone, mobile, one_lakh_allocation_count, ten_lakhs_allocation_count}
 * → 201 {data, message}; 422 {message, errors}; 403 for a branch user (head
 * office creates branches).
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireApiUser(request, "create-branch");
  if (request.method !== "POST") return methodNotAllowed("GET", "POST");
  const value = await parseApiBody(request, branchSchema);
  const result = createBranch(user, value);
  if (!result.ok) return apiFailure(result);
  return apiData(presentBranch({ ...result.branch, registrations_count: 0 }), "Branch created.", { status: 201 });
}
