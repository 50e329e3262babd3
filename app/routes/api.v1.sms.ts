import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { previewBroadcast, sendBroadcast } from "~/models/broadcast.server";
import { listBroadcasts } from "~/models/broadcast-read.server";
import { broadcastSchema, onItsWay } from "~/schemas/broadcast";
import { apiData, requireApiUser, apiList } from "~/http/api.server";
import { parseApiBody } from "~/http/body.server";
import { parseTableParams } from "~/utils/datatable.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/** A typed list of 100,000 numbers as JSON is about 1.5 MB. */
const BODY_LIMIT = 2 * 1024 * 1024;

/** GET /api/v1/sms (send-sms): the broadcast history, newest first (DataTables; search in the text). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "send-sms");
  return apiList(listBroadcasts(user.scope, parseTableParams(new URL(request.url).searchParams)));
}

/**
 * POST /api/v1/sms (send-sms) {type, text, branches, registrants, mobiles}:
 * 201 {data: the broadcast, message}: accepted at once; its messages are
 * stored (and, but for a typed list, its recipients counted) and sent in the
 * background (GET /api/v1/sms/{id} shows the counts move). With preview=true (body or query): 200 {data: the
 * preview} and nothing is sent. 422 {message, errors} per field (type, text,
 * branches, registrants, mobiles and phone).
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET", "POST");
  const user = await requireApiUser(request, "send-sms");
  const value = await parseApiBody(request, broadcastSchema, { limit: BODY_LIMIT });
  const query = new URL(request.url).searchParams.get("preview");
  if (value.preview || query === "1" || query === "true") {
    const previewed = await previewBroadcast(user, value);
    return previewed.ok ? apiData(previewed.preview) : apiFailure(previewed);
  }
  const sent = await sendBroadcast(user, value);
  if (!sent.ok) return apiFailure(sent);
  return apiData(sent.broadcast, onItsWay(sent.broadcast.total), { status: 201 });
}
