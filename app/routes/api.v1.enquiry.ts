import type { ActionFunctionArgs } from "@remix-run/node";
import { apiFailureStatus, tooLarge } from "~/components/public/enquiry.server";
import { createPreregistration, publicView } from "~/models/preregistration.server";
import { apiData, apiError, readForm } from "~/utils/api.server";

export async function loader() {
  return apiError(405, "Method not allowed.");
}

/**
 * POST /api/v1/enquiry (multipart, or JSON without the screenshot): a public
 * pre-registration. 201 {data, message} with the public view (slug, masked
 * phone); 422 {message, errors}; 403 while registration is closed; 429 when
 * rate limited. The same form_token (or Idempotency-Key header) twice gives the
 * first record back (200).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed.");
  if (tooLarge(request)) {
    const message = "The image may not be larger than 10 MB.";
    return apiError(413, message, { screenshot: [message] });
  }
  let form: FormData;
  try {
    form = await readForm(request);
  } catch {
    return apiError(400, "The request body could not be read.");
  }
  const result = await createPreregistration(form, {
    channel: "public",
    branchId: null,
    userId: null,
    clientAddress: context.clientAddress,
    formToken: request.headers.get("Idempotency-Key") ?? undefined,
  });
  if (!result.ok) {
    const message = Object.values(result.errors)[0]?.[0] ?? "The given data was invalid.";
    return apiError(apiFailureStatus(result), message, result.errors);
  }
  return apiData(
    publicView(result.preregistration),
    "Pre-registration saved. Please verify your phone number with the code sent by SMS.",
    { status: result.duplicate ? 200 : 201 },
  );
}
