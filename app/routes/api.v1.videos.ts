import { groupedVideos } from "~/models/video.server";
import { apiData } from "~/http/api.server";
import { methodNotAllowed } from "~/http/http.server";

/** GET /api/v1/videos (public): winner videos grouped ten_lakhs, one_lakh, fifty_thousand. */
export async function loader() {
  return apiData(groupedVideos());
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
