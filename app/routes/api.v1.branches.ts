import { listBranches } from "~/models/branch.server";
import { apiData } from "~/http/api.server";
import { methodNotAllowed } from "~/http/http.server";

/** GET /api/v1/branches (public): the full ordered branch list ({data: [...]}, each with id and title). */
export async function loader() {
  return apiData(listBranches());
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
