import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { createRegistration } from "~/models/registration.server";
import { parseRegistrationQuery } from "~/http/list-query.server";
import { listRegistrations } from "~/models/registration-list.server";
import { registrationApiSchema } from "~/schemas/registration";
import { apiData, requireApiUser, apiList } from "~/http/api.server";
import { parseApiBody } from "~/http/body.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/** Rows returned at once with `all` (instead of a page of 10). */
const ALL_LIMIT = 5000;

/**
 * GET /api/v1/registration?payment_mode&bike_model&branch&from&to&prize&pre_prize&post_prize&status&search
 * and the DataTables parameters (`all` for every matching row up to 5,000). Branch scoped.
 * A filter that does not parse answers 422 {message, errors: {filter: [...]}}.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "read-registration");
  const params = new URL(request.url).searchParams;
  const query = parseRegistrationQuery(params);
  if (!query.ok) return apiFailure(query);
  if (params.has("all")) {
    query.table.start = 0;
    query.table.length = ALL_LIMIT;
  }
  return apiList(listRegistrations(user.scope, query.table, query.filters));
}

/** POST /api/v1/registration: the registration fields with preregistration_id = the pre-registration's slug. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET", "POST");
  const user = await requireApiUser(request, "create-registration");
  const value = await parseApiBody(request, registrationApiSchema);
  const outcome = await createRegistration(user, value.preregistration_id, value);
  if (!outcome.ok) return apiFailure(outcome);
  return apiData(
    outcome.registration,
    outcome.created ? "Registration saved. A confirmation code was sent to the customer." : "Registration saved.",
    { status: outcome.created ? 201 : 200 },
  );
}
