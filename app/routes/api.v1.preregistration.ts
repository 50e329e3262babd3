import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { findAtCounter, getPreregistrationDetail, listPreregistrations } from "~/models/preregistration-admin.server";
import { createPreregistration } from "~/models/preregistration.server";
import {
  counterPreregistrationSchema,
  preregistrationFiltersSchema,
  preregistrationSearchParam,
} from "~/schemas/preregistration";
import { apiQuery } from "~/http/query.server";
import { apiData, requireApiUser, apiList } from "~/http/api.server";
import { BODY_LIMITS, parseValue, readApiBody } from "~/http/body.server";
import { parseTableParams } from "~/utils/datatable.server";
import { fileField } from "~/http/echo.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";
import { canSeeCodes } from "~/utils/permissions";

/**
 * GET /api/v1/preregistration?phone={phone}&bike_model&branch&from&to&prize&status
 * and the DataTables parameters: the paged list of the caller's reach (a full
 * phone number finds the customer at the counter, as on the page). 422 for a
 * filter that is not one of its choices; 429 when the user's hourly limit of
 * such finds (counter grants) is spent.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "read-registration");
  const params = new URL(request.url).searchParams;
  const filters = apiQuery(params, preregistrationFiltersSchema, preregistrationSearchParam(params));
  const limited = findAtCounter(user, filters.phone);
  if (limited) return apiFailure(limited);
  return apiList(listPreregistrations(user.scope, parseTableParams(params), filters));
}

/**
 * POST /api/v1/preregistration (multipart or JSON, screenshot as a file): a
 * pre-registration made at the counter. It belongs to the caller's branch
 * (head office sends branch_id) and a verification code goes to the phone.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET", "POST");
  const user = await requireApiUser(request, "create-registration");
  const body = await readApiBody(request, { limit: BODY_LIMITS.upload });
  const parsed = await parseValue(body, counterPreregistrationSchema);
  if (!parsed.ok) return apiFailure(parsed);
  const created = await createPreregistration(
    { channel: "counter", actor: user },
    parsed.value,
    { file: fileField(body.kind === "form" ? body.form : null, "screenshot"), ref: parsed.value.screenshot_ref },
    { formToken: request.headers.get("Idempotency-Key") },
  );
  if (!created.ok) return apiFailure(created);
  const detail = getPreregistrationDetail(user.scope, created.preregistration.slug, { showCode: canSeeCodes(user) });
  return apiData(
    detail,
    created.duplicate ? "Pre-registration saved." : "Pre-registration saved. A verification code was sent.",
    { status: created.duplicate ? 200 : 201 },
  );
}
