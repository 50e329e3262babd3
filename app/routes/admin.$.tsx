import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";

export { AdminErrorBoundary as ErrorBoundary } from "~/components/AdminErrorBoundary";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: null } satisfies RouteAccess;

/**
 * Any other back-office URL (one not built yet, or none at all): after the
 * login check, a 404 shown inside the back-office shell, sidebar kept.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess(request, handle);
  throw new Response("Not Found", { status: 404 });
}

export default function AdminNotFound() {
  return null;
}
