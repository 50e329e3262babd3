import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { fail } from "~/utils/failure";
import { deleteTestRide, getTestRide, TEST_RIDE_NOT_FOUND } from "~/models/test-ride.server";
import { apiData, requireApiUser } from "~/http/api.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/**
 * GET /api/v1/test-ride/{id}: one booking of the caller's scope, by its slug
 * (never a sequential number: a numeric id is not found).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const ride = getTestRide(user.scope, params.id!);
  return ride ? apiData(ride) : apiFailure(fail.notFound(TEST_RIDE_NOT_FOUND));
}

/** DELETE /api/v1/test-ride/{id} (the slug): soft delete; 404 out of the caller's scope. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireApiUser(request);
  if (request.method !== "DELETE") return methodNotAllowed("GET", "DELETE");
  const res = deleteTestRide(user, params.id!);
  return res.ok ? apiData(null, "Test ride deleted.") : apiFailure(res);
}
