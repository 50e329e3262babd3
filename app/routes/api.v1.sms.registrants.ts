import type { LoaderFunctionArgs } from "@remix-run/node";
import { searchBroadcastRegistrants } from "~/models/broadcast-read.server";
import { registrantQuerySchema } from "~/schemas/broadcast";
import { apiData } from "~/http/api.server";
import { requireStaff } from "~/http/staff-request.server";
import { methodNotAllowed } from "~/http/http.server";

/**
 * GET /api/v1/sms/registrants?q= (send-sms): registered customers for the
 * broadcast's customer select, by name or phone, within the caller's branch
 * (head office: all): [{value: registration id, label: "Name (98XXXXXX12)"}].
 * Bearer token, or the back-office session for the form's type-ahead.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStaff(request, "send-sms");
  const { q } = registrantQuerySchema.parse({ q: new URL(request.url).searchParams.get("q") });
  return apiData(searchBroadcastRegistrants(user.scope, q));
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
