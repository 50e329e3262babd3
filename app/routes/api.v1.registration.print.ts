import type { LoaderFunctionArgs } from "@remix-run/node";
import { PRINT_LIMIT, printRegistrations, readRegistrationFilters } from "~/models/registration.server";
import { apiData } from "~/utils/api.server";
import { requireStaff } from "~/utils/staff-request.server";

/**
 * GET /api/v1/registration/print?{the print URL's query}: the print sheet's
 * data. data.data is the array of registrations (newest first, at most
 * `limit`, default 1,000, up to 5,000); data.total how many matched in all.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStaff(request, "read-registration");
  const params = new URL(request.url).searchParams;
  const asked = Number(params.get("limit"));
  const limit = Number.isInteger(asked) && asked > 0 ? Math.min(asked, 5000) : PRINT_LIMIT;
  return apiData(printRegistrations(user.scope, readRegistrationFilters(params), limit));
}
