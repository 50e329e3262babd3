import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { REGISTRATION_COLUMNS, registrationSheetPages } from "~/models/registration.server";
import { parseRegistrationQuery } from "~/http/list-query.server";
import { bodyText, readApiBody } from "~/http/body.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";
import { xlsDownload } from "~/http/xls-download.server";
import type { Staff } from "~/http/auth.server";
import { requireStaff } from "~/http/staff-request.server";

function download(request: Request, user: Staff, params: URLSearchParams) {
  // The list's own reading of its filters: one the list refuses is refused here too (422).
  const query = parseRegistrationQuery(params);
  if (!query.ok) throw apiFailure(query);
  const rows = registrationSheetPages(user.scope, query.filters);
  return xlsDownload(request, {
    filename: "Registrations.xls",
    sheet: "Registrations",
    columns: REGISTRATION_COLUMNS,
    rows,
  });
}

/** GET /api/v1/registration/download?{the list's filters} → Registrations.xls (bearer token or session). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStaff(request, "read-registration");
  return download(request, user, new URL(request.url).searchParams);
}

/**
 * POST /api/v1/registration/download with the filters in the body (the other reading of the spec),
 * read by the one body reader: JSON, urlencoded or multipart, or none; anything else is refused as
 * JSON (413/415/400). A filter in the body wins over the same one in the query.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET", "POST");
  const user = await requireStaff(request, "read-registration");
  const body = await readApiBody(request, { optional: true });
  const params = new URL(request.url).searchParams;
  const sent = body.kind === "form" ? new Set(body.form.keys()) : body.kind === "json" ? Object.keys(body.json) : [];
  for (const key of sent) {
    const value = bodyText(body, key);
    if (value !== null) params.set(key, value);
  }
  return download(request, user, params);
}
