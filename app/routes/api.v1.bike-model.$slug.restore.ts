import type { ActionFunctionArgs } from "@remix-run/node";
import { restoreBikeModel, presentBikeModel } from "~/models/bike-model.server";
import { apiData, requireApiUser } from "~/http/api.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/** POST /api/v1/bike-model/{slug}/restore (update-bike-model): puts a retired model on sale again. 409 when it is on sale. 404 for an unknown slug. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request, "update-bike-model");
  const result = restoreBikeModel(user, params.slug ?? "");
  return result.ok ? apiData(presentBikeModel(result.bikeModel), "Bike model back on sale.") : apiFailure(result);
}

/** Not a call to read: 405 with Allow. */
export const loader = () => methodNotAllowed("POST");
