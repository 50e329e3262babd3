import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseApiBody } from "~/utils/body.server";
import { createRegistration, listRegistrations, readRegistrationFilters } from "~/models/registration.server";
import { registrationApiSchema } from "~/schemas/registration";
import { apiData, apiError, requireApiUser } from "~/utils/api.server";
import { parseTableParams } from "~/utils/datatable.server";

/** Rows returned at once with `all` (instead of a page of 10). */
const ALL_LIMIT = 5000;

/**
 * GET /api/v1/registration?payment_mode&bike_model&branch&from&to&prize&pre_prize&post_prize&status&search
 * and the DataTables parameters (`all` for every matching row up to 5,000). Branch scoped.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "read-registration");
  const params = new URL(request.url).searchParams;
  const table = parseTableParams(params);
  if (params.has("all")) {
    table.start = 0;
    table.length = ALL_LIMIT;
  }
  return Response.json(listRegistrations(user.scope, table, readRegistrationFilters(params)));
}

/** POST /api/v1/registration: the registration fields with preregistration_id = the pre-registration's slug. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed.");
  const user = await requireApiUser(request, "create-registration");
  const value = await parseApiBody(request, registrationApiSchema);
  const outcome = await createRegistration({ id: user.id, scope: user.scope }, value.preregistration_id, value);
  if (!outcome.ok) return apiError(outcome.status, outcome.message, outcome.errors);
  return apiData(
    outcome.registration,
    outcome.created ? "Registration saved. A confirmation code was sent to the customer." : "Registration saved.",
    { status: outcome.created ? 201 : 200 },
  );
}
