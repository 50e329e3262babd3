import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { fail } from "~/utils/failure";
import { deleteRegistration, updateRegistration } from "~/models/registration.server";
import { findRegistration, getRegistrationDetail } from "~/models/registration-list.server";
import { REGISTRATION_MESSAGES, registrationUpdateSchema } from "~/schemas/registration";
import { apiData, requireApiUser } from "~/http/api.server";
import { currentValues, parseApiUpdate } from "~/http/body.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";
import { canSeeCodes } from "~/utils/permissions";

/** GET /api/v1/registration/{slug}: one registration of the caller's scope (deleted ones too); the code only for staff who may see codes. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "read-registration");
  const reg = getRegistrationDetail(user.scope, params.slug!, { showCode: canSeeCodes(user) });
  return reg ? apiData(reg) : apiFailure(fail.notFound(REGISTRATION_MESSAGES.notFound));
}

/** POST /api/v1/registration/{slug}: update. DELETE /api/v1/registration/{slug}: soft delete. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method === "DELETE") {
    const user = await requireApiUser(request, "delete-registration");
    const res = deleteRegistration(user, params.slug!);
    return res.ok ? apiData(null, "Registration deleted.") : apiFailure(res);
  }
  if (request.method !== "POST") return methodNotAllowed("GET", "POST", "DELETE");
  const user = await requireApiUser(request, "update-registration");
  const current = findRegistration(user.scope, params.slug!);
  if (!current) return apiFailure(fail.notFound(REGISTRATION_MESSAGES.notFound));
  const value = await parseApiUpdate(
    request,
    registrationUpdateSchema,
    // `referrer` is typed by hand (a phone or slug); the stored link is registration_id.
    currentValues(registrationUpdateSchema, { ...current, referrer: null }),
  );
  const outcome = updateRegistration(user, params.slug!, value);
  return outcome.ok ? apiData(outcome.registration, "Registration updated.") : apiFailure(outcome);
}
