import type { LoaderFunctionArgs } from "@remix-run/node";
import { BROADCAST_NOT_FOUND, listRecipients } from "~/models/broadcast-read.server";
import { recipientFiltersSchema } from "~/schemas/broadcast";
import { apiError, requireApiUser, apiList } from "~/http/api.server";
import { parseTableParams } from "~/utils/datatable.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/** GET /api/v1/sms/{id}/recipients (send-sms): the broadcast's messages with their status; status filter, phone search. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "send-sms");
  const id = /^\d{1,12}$/.test(params.id ?? "") ? Number(params.id) : null;
  if (id === null) return apiError(404, BROADCAST_NOT_FOUND);
  const query = new URL(request.url).searchParams;
  const filters = recipientFiltersSchema.parse({ status: query.get("status") });
  const result = listRecipients(user.scope, id, parseTableParams(query), filters);
  return result.ok ? apiList(result.table) : apiFailure(result);
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
