import type { ActionFunctionArgs } from "@remix-run/node";
import { retireBikeModel, presentBikeModel } from "~/models/bike-model.server";
import { apiData, requireApiUser } from "~/http/api.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/** POST /api/v1/bike-model/{slug}/retire (update-bike-model): retires the model: it leaves the public forms and every new-record select at once; its records keep its title. 409 when already retired. 404 for an unknown slug. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request, "update-bike-model");
  const result = retireBikeModel(user, params.slug ?? "");
  return result.ok ? apiData(presentBikeModel(result.bikeModel), "Bike model retired.") : apiFailure(result);
}

/** Not a call to read: 405 with Allow. */
export const loader = () => methodNotAllowed("POST");
