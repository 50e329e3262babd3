import { listBranches } from "~/models/branch.server";
import { apiData } from "~/http/api.server";

/** GET /api/v1/branches (public): the full ordered branch list ({data: [...]}, each with id and title). */
export async function loader() {
  return apiData(listBranches());
}
