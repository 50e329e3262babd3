import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { decideFlag, getFlag } from "~/models/integrity-desk.server";
import { fail } from "~/utils/failure";
import { flagDecisionSchema, INTEGRITY_MESSAGES } from "~/schemas/integrity";
import { apiData, requireApiUser } from "~/http/api.server";
import { parseApiBody } from "~/http/body.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

const idOf = (raw: string | undefined) => (/^\d{1,12}$/.test(raw ?? "") ? Number(raw) : null);

/** GET /api/v1/integrity/flags/{id} (review-integrity): the flag with its evidence, the prizes it holds and the decisions on it. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "review-integrity");
  const id = idOf(params.id);
  const flag = id === null ? null : getFlag(user.scope, id);
  return flag ? apiData(flag) : apiFailure(fail.notFound(INTEGRITY_MESSAGES.notFound));
}

/**
 * POST /api/v1/integrity/flags/{id} {action: clear | hold | void, note} (review-integrity): head office's
 * decision (decision 21). 422 for a missing note or an action not among the three; 404 for no such flag;
 * 409 on a voided flag (the void stands).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET", "POST");
  const user = await requireApiUser(request, "review-integrity");
  const id = idOf(params.id);
  if (id === null) return apiFailure(fail.notFound(INTEGRITY_MESSAGES.notFound));
  const decision = await parseApiBody(request, flagDecisionSchema);
  const result = decideFlag(user, id, decision);
  if (!result.ok) return apiFailure(result);
  const { flag, released, voided, notices } = result;
  return apiData({ flag, released, voided, notices }, `Flag ${flag.status}.`);
}
