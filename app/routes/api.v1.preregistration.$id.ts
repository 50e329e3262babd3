import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { fail } from "~/utils/failure";
import {
  deletePreregistration,
  getPreregistrationDetail,
  PREREGISTRATION_ADMIN_MESSAGES as A,
  storedPreregistration,
  updatePreregistration,
} from "~/models/preregistration-admin.server";
import { preregistrationEditSchema } from "~/schemas/preregistration";
import { apiData, requireApiUser } from "~/http/api.server";
import { BODY_LIMITS, currentValues, overlayCurrent, parseValue, readApiBody } from "~/http/body.server";
import { fileField } from "~/http/echo.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";
import { canSeeCodes } from "~/utils/permissions";

/**
 * GET /api/v1/preregistration/{id}: one pre-registration of the caller's reach,
 * by its slug (never a sequential number); the code only for staff allowed to
 * see codes.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "read-registration");
  const pre = getPreregistrationDetail(user.scope, params.id ?? "", { showCode: canSeeCodes(user) });
  return pre ? apiData(pre) : apiFailure(fail.notFound(A.notFound));
}

/**
 * POST /api/v1/preregistration/{id}: update with the fields sent (others keep their values; null or ""
 * clears an optional one) plus branch_id (head office), screenshot as a file.
 * DELETE: soft delete (409 once it has a registration).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const slug = params.id ?? "";
  if (request.method === "DELETE") {
    const user = await requireApiUser(request, "delete-registration");
    const res = deletePreregistration(user, slug);
    return res.ok ? apiData(null, A.deleted) : apiFailure(res);
  }
  if (request.method !== "POST") return methodNotAllowed("GET", "POST", "DELETE");
  const user = await requireApiUser(request, "update-registration");
  const current = storedPreregistration(user.scope, slug);
  if (!current) return apiFailure(fail.notFound(A.notFound));
  const body = await readApiBody(request, { limit: BODY_LIMITS.upload, optional: true });
  // Laid over the stored values: a field left out keeps its value, null or "" clears an optional one.
  const merged = overlayCurrent(body, currentValues(preregistrationEditSchema, current));
  const parsed = await parseValue(merged, preregistrationEditSchema);
  if (!parsed.ok) return apiFailure(parsed);
  const res = await updatePreregistration(user, slug, parsed.value, {
    file: fileField(body.kind === "form" ? body.form : null, "screenshot"),
  });
  return res.ok ? apiData(res.row, A.updated) : apiFailure(res);
}
