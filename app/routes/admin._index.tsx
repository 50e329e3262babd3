import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { requireRouteAccess } from "~/utils/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess(request);
  return null;
}

export default function Dashboard() {
  return (
    <>
      <h1>Dashboard</h1>
      <p>
        <Link to="/admin/test-ride">Test Rides</Link>
      </p>
    </>
  );
}
