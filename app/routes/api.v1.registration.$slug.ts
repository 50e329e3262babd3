import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseApiBody } from "~/utils/body.server";
import { deleteRegistration, getRegistrationDetail, updateRegistration } from "~/models/registration.server";
import { registrationUpdateSchema } from "~/schemas/registration";
import { apiData, apiError, notFound, requireApiUser } from "~/utils/api.server";
import { can } from "~/utils/permissions";

/** GET /api/v1/registration/{slug}: one registration of the caller's scope (deleted ones too); the code only with read-user. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "read-registration");
  const reg = getRegistrationDetail(user.scope, params.slug!, { showCode: can(user, "read-user") });
  return reg ? apiData(reg) : notFound("Registration");
}

/** POST /api/v1/registration/{slug}: update. DELETE /api/v1/registration/{slug}: soft delete. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method === "DELETE") {
    const user = await requireApiUser(request, "delete-registration");
    const res = deleteRegistration(user.scope, params.slug!);
    return res.ok ? apiData(null, "Registration deleted.") : apiError(res.status, res.message);
  }
  if (request.method !== "POST") return apiError(405, "Method not allowed.");
  const user = await requireApiUser(request, "update-registration");
  const value = await parseApiBody(request, registrationUpdateSchema);
  const outcome = updateRegistration(user.scope, params.slug!, value);
  if (!outcome.ok) return apiError(outcome.status, outcome.message, outcome.errors);
  return apiData(outcome.registration, "Registration updated.");
}
