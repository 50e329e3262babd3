import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { canSeeCodes } from "~/utils/permissions";
import { findActiveBranch } from "~/models/branch.server";
import {
  getPreregistrationDetail,
  listPreregistrations,
  readPreregistrationFilters,
} from "~/models/preregistration-admin.server";
import { createPreregistration } from "~/models/preregistration.server";
import { apiData, apiError, readForm, requireApiUser, validationError } from "~/utils/api.server";
import { parseTableParams } from "~/utils/datatable.server";

/**
 * GET /api/v1/preregistration?phone={phone}&bike_model&branch&from&to&prize&status
 * and the DataTables parameters: the paged list of the caller's scope.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "read-registration");
  const params = new URL(request.url).searchParams;
  return Response.json(listPreregistrations(user.scope, parseTableParams(params), readPreregistrationFilters(params)));
}

/**
 * POST /api/v1/preregistration (multipart or JSON, screenshot as a file): a
 * pre-registration made at the counter. It belongs to the caller's branch
 * (head office sends branch_id) and a verification code goes to the phone.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed.");
  const user = await requireApiUser(request, "create-registration");
  const form = await readForm(request);
  let branchId = user.scope.branchId;
  if (branchId === null) {
    const chosen = Number(form.get("branch_id"));
    branchId = Number.isInteger(chosen) && chosen > 0 && findActiveBranch(chosen) ? chosen : null;
    if (branchId === null)
      return validationError({ branch_id: ["Choose the branch this pre-registration belongs to."] });
  }
  const created = await createPreregistration(form, { channel: "branch", branchId, userId: user.id });
  if (!created.ok) {
    const status = created.reason === "rate_limited" ? 429 : 422;
    const first = Object.values(created.errors)[0]?.[0] ?? "The given data was invalid.";
    return apiError(status, first, created.errors);
  }
  const detail = getPreregistrationDetail(user.scope, created.preregistration.slug, {
    showCode: canSeeCodes(user),
  });
  return apiData(
    detail,
    created.duplicate ? "Pre-registration saved." : "Pre-registration saved. A verification code was sent.",
    {
      status: created.duplicate ? 200 : 201,
    },
  );
}
