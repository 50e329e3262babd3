import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRouteAccess } from "~/utils/auth.server";

/** Any other back-office URL: the route table still applies, then it is not found. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess(request);
  throw new Response("Not Found", { status: 404 });
}

export default function AdminNotFound() {
  return null;
}
