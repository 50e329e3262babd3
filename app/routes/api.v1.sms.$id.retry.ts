import type { ActionFunctionArgs } from "@remix-run/node";
import { retryFailedMessages } from "~/models/broadcast.server";
import { BROADCAST_NOT_FOUND } from "~/models/broadcast-read.server";
import { apiData, apiError, requireApiUser } from "~/http/api.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

export async function loader() {
  return methodNotAllowed("POST");
}

/** POST /api/v1/sms/{id}/retry (send-sms): the broadcast's failed messages go back to the queue; 409 when none failed. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request, "send-sms");
  const id = /^\d{1,12}$/.test(params.id ?? "") ? Number(params.id) : null;
  if (id === null) return apiError(404, BROADCAST_NOT_FOUND);
  const result = await retryFailedMessages(user, id);
  if (!result.ok) return apiFailure(result);
  return apiData({ requeued: result.requeued }, `${result.requeued} failed message(s) are queued to be sent again.`);
}
