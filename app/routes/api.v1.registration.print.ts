import type { LoaderFunctionArgs } from "@remix-run/node";
import { parseRegistrationQuery } from "~/http/list-query.server";
import { printLimit, printRegistrations } from "~/models/registration-print.server";
import { apiData } from "~/http/api.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";
import { requireStaff } from "~/http/staff-request.server";

/**
 * GET /api/v1/registration/print?{the print URL's query}: the print sheet's
 * data. data.data is the array of registrations (newest first, at most
 * `limit`, default 1,000, up to 5,000); data.total how many matched in all.
 * A filter that does not parse answers 422.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStaff(request, "read-registration");
  const params = new URL(request.url).searchParams;
  const query = parseRegistrationQuery(params);
  if (!query.ok) return apiFailure(query);
  return apiData(printRegistrations(user.scope, query.filters, printLimit(params.get("limit"))));
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
