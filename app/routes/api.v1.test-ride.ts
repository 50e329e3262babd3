import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { createTestRide, listTestRides } from "~/models/test-ride.server";
import { TEST_RIDE_MESSAGES } from "~/schemas/test-ride";
import { apiData, apiError, readForm, requireApiUser } from "~/utils/api.server";
import { parseTableParams } from "~/utils/datatable.server";

/** GET /api/v1/test-ride: from, to and the DataTables parameters; branch scoped. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const params = new URL(request.url).searchParams;
  return Response.json(
    listTestRides(user.scope, parseTableParams(params), { from: params.get("from"), to: params.get("to") }),
  );
}

/**
 * POST /api/v1/test-ride (public): a test ride or booking with the captcha answer.
 * 201 {data, message: "Thank You for Test Ride Booking."}; 422 {message, errors}
 * with the spec's booking error fields; 429 when rate limited. The same
 * form_token (or Idempotency-Key header) twice gives the first booking (200).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed.");
  const form = await readForm(request).catch(() => new FormData());
  const result = await createTestRide(form, {
    clientAddress: context.clientAddress,
    formToken: request.headers.get("Idempotency-Key") ?? undefined,
  });
  if (!result.ok) {
    const message = Object.values(result.errors)[0]?.[0] ?? "The given data was invalid.";
    return apiError(result.reason === "rate_limited" ? 429 : 422, message, result.errors);
  }
  const { id: _id, form_token: _token, deleted_at: _deleted, referrer_id: _referrer, ...ride } = result.testRide;
  return apiData(ride, TEST_RIDE_MESSAGES.thanks, { status: result.duplicate ? 200 : 201 });
}
