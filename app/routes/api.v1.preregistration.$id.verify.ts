import type { ActionFunctionArgs } from "@remix-run/node";
import { findPreregistration } from "~/models/preregistration-admin.server";
import { verifyPreregistration } from "~/models/preregistration-verify.server";
import { verifySchema, COUNTER_VERIFY_MESSAGES as CV } from "~/schemas/preregistration";
import { apiData, requireApiUser } from "~/http/api.server";
import { parseValue, readApiBody } from "~/http/body.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";
import { canSeeCodes } from "~/utils/permissions";

/**
 * POST /api/v1/preregistration/{id}/verify {code}: the code the customer
 * received, compared on the server by the same model function as the page; a
 * mismatch sends a fresh code and answers 422 with the spec's message
 * (errors.resend says why no new code could be sent). The spec's call without
 * a body still works for staff who may see codes (they could read the code
 * anyway): the live code is used. The second thrill is drawn on success
 * (data.prize, data.draw).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request, "read-registration");
  const body = await readApiBody(request, { optional: true });
  const parsed = await parseValue(body, verifySchema);
  if (!parsed.ok) return apiFailure(parsed);
  const res = await verifyPreregistration({ channel: "counter", actor: user }, params.id ?? "", parsed.value.code, {
    useCurrentCode: canSeeCodes(user),
  });
  if (!res.ok) return apiFailure(res);
  const drawn = await res.draw();
  const fresh = findPreregistration(user.scope, res.preregistration.slug);
  return apiData({ ...fresh, draw: { amount: drawn.amount, outcome: drawn.outcome } }, CV.verified);
}

/** Not a call to read: 405 with Allow. */
export const loader = () => methodNotAllowed("POST");
