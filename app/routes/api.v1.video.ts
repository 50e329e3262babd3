import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { createVideo, listVideosTable, presentVideo } from "~/models/video.server";
import { videoFiltersSchema, videoSchema } from "~/schemas/video";
import { apiData, requireApiUser } from "~/http/api.server";
import { parseApiBody } from "~/http/body.server";
import { parseTableParams } from "~/utils/datatable.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";
import { apiQuery } from "~/http/query.server";

/**
 * GET /api/v1/video?amount=50000|100000|1000000 (read-video): the DataTables
 * list, newest first; each row title, citizenship_no (Registration ID), url,
 * amount, phone, thumbnail, thumbnail_url. 422 for another amount.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request, "read-video");
  const params = new URL(request.url).searchParams;
  const filters = apiQuery(params, videoFiltersSchema);
  const table = listVideosTable(parseTableParams(params), filters);
  return Response.json({ ...table, data: table.data.map(presentVideo) });
}

/**
 * POST /api/v1/video (create-video) {title, url (http or https), amount,
 * citizenship_no, phone, thumbnail} → 201 {data, message}; 422.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireApiUser(request, "create-video");
  if (request.method !== "POST") return methodNotAllowed("GET", "POST");
  const value = await parseApiBody(request, videoSchema);
  const result = createVideo(user, value);
  if (!result.ok) return apiFailure(result);
  return apiData(presentVideo(result.video), "Video created.", { status: 201 });
}
