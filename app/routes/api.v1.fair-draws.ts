import { campaignFile } from "~/models/fair-draw.server";
import { apiData } from "~/http/api.server";
import { methodNotAllowed } from "~/http/http.server";

/**
 * GET /api/v1/fair-draws (public): the campaign file a checker pins: every committed day, newest
 * first (a committed tomorrow included), with its terms hash, house commitment, chain head, counts,
 * and whether it is closed (docs/verify-a-draw-day.md).
 */
export async function loader() {
  return apiData(campaignFile(), "", { headers: { "Cache-Control": "no-store" } });
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
