import { listBikeModels } from "~/models/bike-model.server";
import { apiData } from "~/http/api.server";

/** GET /api/v1/bike-models (public): every model ({data: [...]}, id, title, thumbnail_url). */
export async function loader() {
  return apiData(listBikeModels());
}
