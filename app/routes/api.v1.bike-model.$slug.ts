import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  BIKE_MODEL_ERRORS,
  deleteBikeModel,
  getBikeModel,
  presentBikeModel,
  updateBikeModel,
} from "~/models/bike-model.server";
import { fail } from "~/utils/failure";
import { bikeModelSchema } from "~/schemas/bike-model";
import { apiData, requireApiUser } from "~/http/api.server";
import { currentValues, parseApiUpdate } from "~/http/body.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/**
 * GET /api/v1/bike-model/{slug} (read-bike-model): the model with thumbnail,
 * thumbnail_url, retired, usage (preregistrations, registrations, test_rides)
 * and deletable; 404 for an unknown slug.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireApiUser(request, "read-bike-model");
  const model = getBikeModel(params.slug ?? "");
  if (!model) return apiFailure(fail.notFound(BIKE_MODEL_ERRORS.notFound));
  return apiData({ ...presentBikeModel(model), usage: model.usage, deletable: model.deletable });
}

/**
 * POST /api/v1/bike-model/{slug} (update-bike-model) {title, thumbnail} → 200; 422.
 * DELETE /api/v1/bike-model/{slug} (update-bike-model): 200 for a model no
 * record names; 409 with what names it otherwise (retire it instead:
 * POST /api/v1/bike-model/{slug}/retire).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireApiUser(request, "update-bike-model");
  const slug = params.slug ?? "";
  if (request.method === "DELETE") {
    const result = deleteBikeModel(user, slug);
    return result.ok ? apiData(null, "Bike model deleted.") : apiFailure(result);
  }
  if (request.method === "POST" || request.method === "PATCH" || request.method === "PUT") {
    const current = getBikeModel(slug);
    if (!current) return apiFailure(fail.notFound(BIKE_MODEL_ERRORS.notFound));
    const value = await parseApiUpdate(
      request,
      bikeModelSchema,
      currentValues(bikeModelSchema, current, { thumbnail: "thumbnail_id" }),
    );
    const result = updateBikeModel(user, slug, value);
    return result.ok ? apiData(presentBikeModel(result.bikeModel), "Bike model updated.") : apiFailure(result);
  }
  return methodNotAllowed("GET", "POST", "PUT", "PATCH", "DELETE");
}
