import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { bookTestRide, listTestRides, testRideByFormToken } from "~/models/test-ride.server";
import { TEST_RIDE_MESSAGES, testRideFiltersSchema, testRideSchema } from "~/schemas/test-ride";
import type { TestRide } from "@db/schema";
import { apiData, requireApiUser, apiList } from "~/http/api.server";
import { clientAddress } from "~/http/auth.server";
import { parseValue, readApiBody } from "~/http/body.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";
import { parseListQuery } from "~/http/list-query.server";
import { chargeAddress, checkCaptcha, screenPublicForm } from "~/http/public-guard.server";
import { referralOf } from "~/http/referral.server";

/** GET /api/v1/test-ride: from, to and the DataTables parameters; branch scoped; 422 for a bad filter. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const query = parseListQuery(new URL(request.url).searchParams, testRideFiltersSchema);
  if (!query.ok) return apiFailure(query);
  return apiList(listTestRides(user.scope, query.table, query.filters));
}

const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

/** A booking as the public API shows it: without its id, form token, deletion and referrer. */
const present = ({ id: _id, form_token: _token, deleted_at: _deleted, referrer_id: _referrer, ...ride }: TestRide) =>
  ride;

/**
 * POST /api/v1/test-ride (public; JSON, urlencoded or multipart): a test ride
 * or booking with the captcha answer. 201 {data, message: "Thank You for Test
 * Ride Booking."}; 422 {message, errors} with the spec's booking error fields
 * (and g-recaptcha-response); 429 with Retry-After when rate limited. The
 * same form_token (or Idempotency-Key header) twice gives the first booking (200).
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET", "POST");
  const address = clientAddress(request);
  const body = await readApiBody(request);
  const parsed = await parseValue(body, testRideSchema);
  const key = request.headers.get("Idempotency-Key")?.trim();
  const token = key && TOKEN.test(key) ? key : parsed.ok ? parsed.value.form_token : undefined;
  const first = parsed.ok ? testRideByFormToken(token) : null;
  if (first) return apiData(present(first), TEST_RIDE_MESSAGES.thanks);

  const screened = screenPublicForm(body, address, "test-ride-ip");
  if (screened) return apiFailure(screened);
  if (!parsed.ok) return apiFailure(parsed);
  const captcha = await checkCaptcha(body, address);
  if (captcha) return apiFailure(captcha);
  const booked = bookTestRide(
    { ...parsed.value, form_token: token },
    { charge: chargeAddress("test-ride-ip", address), referral: referralOf(request) },
  );
  if (!booked.ok) return apiFailure(booked);
  return apiData(present(booked.testRide), TEST_RIDE_MESSAGES.thanks, { status: booked.duplicate ? 200 : 201 });
}
