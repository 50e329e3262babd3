import type { LoaderFunctionArgs } from "@remix-run/node";
import { fail } from "~/models/failure";
import { findPublicEntry, publicView } from "~/models/preregistration.server";
import { OTP_MESSAGES } from "~/schemas/preregistration";
import { apiData } from "~/utils/api.server";
import { apiFailure } from "~/utils/http.server";

/** GET /api/v1/enquiry/{id} ({id} = the public slug): the public view only (masked phone, no code). */
export async function loader({ params }: LoaderFunctionArgs) {
  const entry = findPublicEntry(params.id ?? "");
  return entry ? apiData(publicView(entry)) : apiFailure(fail.notFound(OTP_MESSAGES.notFound));
}
