import type { ActionFunctionArgs } from "@remix-run/node";
import { parseApiBody } from "~/utils/body.server";
import { searchRegistrants } from "~/models/registration.server";
import { registrantSearchSchema } from "~/schemas/registration";
import { apiData, apiError } from "~/utils/api.server";
import { requireStaff } from "~/utils/staff-request.server";

/**
 * POST /api/v1/registration/search {q}: registered customers for the referrer
 * field, as options [{value, label, slug, phone}]. Bearer token, or the
 * back-office session for the form's own search.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed.");
  const user = await requireStaff(request, "read-registration");
  const value = await parseApiBody(request, registrantSearchSchema);
  return apiData(searchRegistrants(user.scope, value.q));
}
