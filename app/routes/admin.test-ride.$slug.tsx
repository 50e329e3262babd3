import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { EmailText } from "~/components/EmailText";
import { label } from "~/utils/labels";
import { DateText } from "~/components/DateText";
import { Link, useLoaderData } from "@remix-run/react";
import { DeleteForm } from "~/components/ConfirmSubmit";
import { deleteTestRide, getTestRide } from "~/models/test-ride.server";
import { requireIntent, requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { notFound, pageFailure } from "~/http/http.server";
import { redirectWithToast, success } from "~/http/toast.server";
import { DetailList } from "~/components/DetailList";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: null, intents: { delete: null } } as const satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Test Ride" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const ride = getTestRide(user.scope, params.slug!);
  if (!ride) throw notFound();
  return { ride };
}

/** intent=delete: soft delete after the spec's "Are you sure?"; another branch's booking is not found. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { staff: user } = await requireIntent(request, handle);
  const res = deleteTestRide(user, params.slug!);
  if (!res.ok) throw pageFailure(res);
  return redirectWithToast("/admin/test-ride", success("Test ride deleted."));
}

export default function TestRideDetail() {
  const { ride } = useLoaderData<typeof loader>();
  const rows: [string, React.ReactNode][] = [
    ["Type", label("test_ride_type", ride.type)],
    ["Name", ride.name],
    ["Email", <EmailText key="email" email={ride.email} />],
    ["Phone", ride.phone],
    ["Model", ride.bike_model.title],
    ["State", ride.state],
    ["District", ride.district],
    ["City", ride.city],
    ["Branch", ride.branch.title],
    ["Registered", <DateText key="at" at={ride.created_at} time />],
    ["Referrer", ride.referrer?.title ?? ""],
    ["Source", ride.utm_source ?? ""],
  ];
  return (
    <>
      <h1>Test Ride</h1>
      <DetailList rows={rows} />
      <div className="actions">
        <Link to="/admin/test-ride" className="button">
          Close
        </Link>
        <DeleteForm />
      </div>
    </>
  );
}
