import type { LoaderFunctionArgs } from "@remix-run/node";
import { listBikeModels, listBikeModelsTable } from "~/models/bike-model.server";
import { apiData, requireApiUser } from "~/utils/api.server";
import { parseTableParams } from "~/utils/datatable.server";

/**
 * GET /api/v1/bike-model?all (public): every model as {data: [...]}.
 * GET /api/v1/bike-model with DataTables parameters (staff, read-bike-model):
 * {draw, data, recordsTotal, recordsFiltered, input}.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  if (params.has("all")) return apiData(listBikeModels());
  await requireApiUser(request, "read-bike-model");
  return Response.json(listBikeModelsTable(parseTableParams(params)));
}
