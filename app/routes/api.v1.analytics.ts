import type { LoaderFunctionArgs } from "@remix-run/node";
import { campaignAnalytics } from "~/models/analytics.server";
import { analyticsRangeSchema } from "~/schemas/analytics";
import { apiData, requireApiUser } from "~/http/api.server";
import { apiQuery } from "~/http/query.server";
import { methodNotAllowed } from "~/http/http.server";

/**
 * GET /api/v1/analytics?from&to (send-sms): the figures of /admin/analytics as
 * JSON for a range of Kathmandu days (default: the campaign so far); 422 with
 * `errors.from` / `errors.to` for a date that does not read, `to` before
 * `from`, or a range longer than 366 days. Branch users get their branch's figures.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "send-sms");
  const range = apiQuery(new URL(request.url).searchParams, analyticsRangeSchema);
  return apiData(await campaignAnalytics(user.scope, range));
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
