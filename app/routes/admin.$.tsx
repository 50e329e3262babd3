import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRouteAccess, type RouteAccess } from "~/utils/auth.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: null } satisfies RouteAccess;

/** Any other back-office URL: the route table still applies, then it is not found. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess(request, handle);
  throw new Response("Not Found", { status: 404 });
}

export default function AdminNotFound() {
  return null;
}
