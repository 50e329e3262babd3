import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deleteTestRide, getTestRide } from "~/models/test-ride.server";
import { apiData, apiError, notFound, requireApiUser } from "~/utils/api.server";

/** GET /api/v1/test-ride/{id}: one booking of the caller's scope. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const ride = getTestRide(user.scope, params.id!);
  return ride ? apiData(ride) : notFound("Test ride");
}

/** DELETE /api/v1/test-ride/{id}. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireApiUser(request);
  if (request.method !== "DELETE") return apiError(405, "Method not allowed.");
  return deleteTestRide(user.scope, params.id!) ? apiData(null, "Test ride deleted.") : notFound("Test ride");
}
