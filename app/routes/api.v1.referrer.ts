import type { LoaderFunctionArgs } from "@remix-run/node";
import { referrerReport } from "~/models/referrer.server";
import { referrerFiltersSchema } from "~/schemas/referrer";
import { requireApiUser } from "~/http/api.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";
import { parseListQuery } from "~/http/list-query.server";

/**
 * GET /api/v1/referrer?from&to (read-registration) with the DataTables
 * parameters: {data: [{id, slug, title, branch, referrals_count,
 * test_rides_count, preregistrations_count}], recordsTotal, recordsFiltered,
 * draw, input}. from/to are Kathmandu days (yyyy/MM/dd or yyyy-MM-dd); a bad
 * one answers 422 {message, errors}. Branch users get their branch's customers.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "read-registration");
  const params = new URL(request.url).searchParams;
  const query = parseListQuery(params, referrerFiltersSchema, {
    search: params.get("search[value]") ?? params.get("search"),
  });
  if (!query.ok) return apiFailure(query);
  return Response.json(referrerReport(user.scope, query.table, query.filters));
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
