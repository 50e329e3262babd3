import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { ConfirmSubmit } from "~/components/ConfirmSubmit";
import { deleteTestRide, getTestRide, type TestRideRow } from "~/models/test-ride.server";
import { requireRouteAccess, type RouteAccess } from "~/utils/auth.server";
import { displayDateTime } from "~/utils/time";
import { oops, redirectWithToast, success } from "~/utils/toast.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: null } satisfies RouteAccess;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const ride = getTestRide(user.scope, params.slug!);
  if (!ride) throw new Response("Not Found", { status: 404 });
  return Response.json({ ride });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const form = await request.formData();
  if (form.get("intent") !== "delete")
    return redirectWithToast(`/admin/test-ride/${params.slug}`, oops("Unknown action."));
  if (!deleteTestRide(user.scope, params.slug!)) throw new Response("Not Found", { status: 404 });
  return redirectWithToast("/admin/test-ride", success("Test ride deleted."));
}

export default function TestRideDetail() {
  const { ride } = useLoaderData<typeof loader>() as { ride: TestRideRow };
  const rows: [string, string][] = [
    ["Type", ride.type],
    ["Name", ride.name],
    ["Email", ride.email ?? ""],
    ["Phone", ride.phone],
    ["Model", ride.bike_model.title],
    ["State", ride.state],
    ["District", ride.district],
    ["City", ride.city],
    ["Branch", ride.branch.title],
    ["Registered", displayDateTime(ride.created_at)],
    ["Referrer", ride.referrer?.title ?? ""],
    ["Source", ride.utm_source ?? ""],
  ];
  return (
    <>
      <h1>Test Ride</h1>
      <dl className="details">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <div className="actions">
        <Link to="/admin/test-ride" className="button">
          Close
        </Link>
        <Form method="post">
          <ConfirmSubmit name="intent" value="delete" className="danger" message="Are you sure?">
            Delete
          </ConfirmSubmit>
        </Form>
      </div>
    </>
  );
}
