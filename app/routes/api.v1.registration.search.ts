import type { ActionFunctionArgs } from "@remix-run/node";
import { searchRegistrants } from "~/models/registration-list.server";
import { registrantSearchSchema } from "~/schemas/registration";
import { apiData } from "~/http/api.server";
import { parseApiBody } from "~/http/body.server";
import { methodNotAllowed } from "~/http/http.server";
import { requireStaff } from "~/http/staff-request.server";

/**
 * POST /api/v1/registration/search {q}: registered customers for the referrer
 * field, as options [{value, label, slug, phone}]: the caller's branch by
 * name, phone or bill; another branch's customer only by the full phone, as a
 * bare entry without name, id or slug (decision 5). Bearer token, or the
 * back-office session for the form's own search.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireStaff(request, "read-registration");
  const value = await parseApiBody(request, registrantSearchSchema);
  return apiData(searchRegistrants(user.scope, value.q));
}

/** Not a call to read: 405 with Allow. */
export const loader = () => methodNotAllowed("POST");
