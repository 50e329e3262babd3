import { listDays } from "~/models/fair-draw.server";
import { apiData } from "~/http/api.server";
import { methodNotAllowed } from "~/http/http.server";

/** GET /api/v1/fair-draws (public): every committed day, newest first: commitment, chain head, number of draws, and the seed once the day is over. */
export async function loader() {
  return apiData(listDays(), "", { headers: { "Cache-Control": "no-store" } });
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
