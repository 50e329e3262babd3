import type { LoaderFunctionArgs } from "@remix-run/node";
import { listTestRides } from "~/models/test-ride.server";
import { requireApiUser } from "~/utils/api.server";
import { parseTableParams } from "~/utils/datatable.server";

/** GET /api/v1/test-ride: from, to and the DataTables parameters; branch scoped. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const params = new URL(request.url).searchParams;
  return Response.json(listTestRides(user.scope, parseTableParams(params), { from: params.get("from"), to: params.get("to") }));
}
