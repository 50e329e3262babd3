import type { LoaderFunctionArgs } from "@remix-run/node";
import { findPublicEntry, publicView } from "~/models/preregistration.server";
import { apiData, notFound } from "~/utils/api.server";

/** GET /api/v1/enquiry/{id} ({id} = the public slug): the public view only (masked phone, no code). */
export async function loader({ params }: LoaderFunctionArgs) {
  const entry = findPublicEntry(params.id ?? "");
  return entry ? apiData(publicView(entry)) : notFound("Pre-registration");
}
