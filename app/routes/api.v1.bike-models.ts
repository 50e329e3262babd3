import { listBikeModels } from "~/models/bike-model.server";
import { apiData } from "~/http/api.server";
import { methodNotAllowed } from "~/http/http.server";

/** GET /api/v1/bike-models (public): every model ({data: [...]}, id, title, thumbnail_url). */
export async function loader() {
  return apiData(listBikeModels());
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
