import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { readRegistrationFilters, REGISTRATION_COLUMNS, registrationSheetRows } from "~/models/registration.server";
import { readForm } from "~/utils/api.server";
import { xlsDownload } from "~/utils/spreadsheet.server";
import { requireStaff } from "~/utils/staff-request.server";

async function download(request: Request, params: URLSearchParams) {
  const user = await requireStaff(request, "read-registration");
  const rows = registrationSheetRows(user.scope, readRegistrationFilters(params));
  return xlsDownload(request, {
    filename: "Registrations.xls",
    sheet: "Registrations",
    columns: REGISTRATION_COLUMNS,
    rows,
  });
}

/** GET /api/v1/registration/download?{the list's filters} → Registrations.xls (bearer token or session). */
export async function loader({ request }: LoaderFunctionArgs) {
  return download(request, new URL(request.url).searchParams);
}

/** POST /api/v1/registration/download with the filters in the body (the other reading of the spec). */
export async function action({ request }: ActionFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const form = await readForm(request.clone()).catch(() => new FormData());
  form.forEach((v, k) => typeof v === "string" && params.set(k, v));
  return download(request, params);
}
