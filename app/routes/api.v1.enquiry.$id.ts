import type { LoaderFunctionArgs } from "@remix-run/node";
import { fail } from "~/utils/failure";
import { codeSmsOf, findPublicEntry, ownerView, publicView } from "~/models/preregistration-read.server";
import { OTP_MESSAGES } from "~/schemas/preregistration";
import { apiData } from "~/http/api.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";
import { ownsEntry } from "~/http/owned-entries.server";

/**
 * GET /api/v1/enquiry/{id} ({id} = the public slug): the public view (masked
 * phone, prize; never the code). The browser that created or proved the entry
 * (its cookie) also gets the name, address, email and citizenship/PAN.
 * `code_sms` tells how the SMS of the latest code fares (decision 8): "failed"
 * means it will not arrive and a new code is needed; null once verified.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const entry = findPublicEntry(params.id ?? "");
  if (!entry) return apiFailure(fail.notFound(OTP_MESSAGES.notFound));
  const owner = await ownsEntry(request, entry.slug);
  const view = owner ? ownerView(entry) : publicView(entry);
  return apiData({ ...view, code_sms: codeSmsOf(entry) }, "", {
    headers: { "Cache-Control": "private, no-cache" },
  });
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
