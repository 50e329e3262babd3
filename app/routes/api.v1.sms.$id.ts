import type { LoaderFunctionArgs } from "@remix-run/node";
import { BROADCAST_NOT_FOUND, getBroadcast } from "~/models/broadcast-read.server";
import { apiData, apiError, requireApiUser } from "~/http/api.server";
import { methodNotAllowed } from "~/http/http.server";

/** GET /api/v1/sms/{id} (send-sms): one broadcast with its counts (total, queued, sent, failed, skipped) and status. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "send-sms");
  const id = /^\d{1,12}$/.test(params.id ?? "") ? Number(params.id) : null;
  const broadcast = id === null ? null : getBroadcast(user.scope, id);
  return broadcast ? apiData(broadcast) : apiError(404, BROADCAST_NOT_FOUND);
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
