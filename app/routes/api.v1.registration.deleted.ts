import type { LoaderFunctionArgs } from "@remix-run/node";
import { listDeletedRegistrations, readRegistrationFilters } from "~/models/registration.server";
import { requireApiUser } from "~/utils/api.server";
import { parseTableParams } from "~/utils/datatable.server";

/** GET /api/v1/registration/deleted: the trash (DataTables, page length 10), branch scoped. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "delete-registration");
  const params = new URL(request.url).searchParams;
  return Response.json(listDeletedRegistrations(user.scope, parseTableParams(params), readRegistrationFilters(params)));
}
