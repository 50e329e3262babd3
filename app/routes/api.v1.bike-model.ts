import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { createBikeModel, listBikeModels, listBikeModelsTable, presentBikeModel } from "~/models/bike-model.server";
import { bikeModelSchema } from "~/schemas/bike-model";
import { apiData, requireApiUser } from "~/http/api.server";
import { parseApiBody } from "~/http/body.server";
import { parseTableParams } from "~/utils/datatable.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/**
 * GET /api/v1/bike-model?all (public): every model on sale as {data: [...]}.
 * GET /api/v1/bike-model with DataTables parameters (staff, read-bike-model):
 * {draw, data, recordsTotal, recordsFiltered, input}, retired models too
 * (retired: true).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  if (params.has("all")) return apiData(listBikeModels());
  await requireApiUser(request, "read-bike-model");
  const table = listBikeModelsTable(parseTableParams(params));
  return Response.json({ ...table, data: table.data.map(presentBikeModel) });
}

/**
 * POST /api/v1/bike-model (create-bike-model) {title, thumbnail (a file id
 * from GET /api/v1/file or POST /api/v1/upload)} → 201 {data, message}; 422.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireApiUser(request, "create-bike-model");
  if (request.method !== "POST") return methodNotAllowed("GET", "POST");
  const value = await parseApiBody(request, bikeModelSchema);
  const result = createBikeModel(user, value);
  if (!result.ok) return apiFailure(result);
  return apiData(presentBikeModel(result.bikeModel), "Bike model created.", { status: 201 });
}
