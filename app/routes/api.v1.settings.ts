import { publicSettings } from "~/models/settings.server";
import { apiData } from "~/utils/api.server";

/** GET /api/v1/settings: texts and logo (public). */
export async function loader() {
  return apiData(publicSettings());
}
