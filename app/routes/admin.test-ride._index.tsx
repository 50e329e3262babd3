import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { DataTable } from "~/components/DataTable";
import { listTestRides, type TestRideRow } from "~/models/test-ride.server";
import { requireRouteAccess, type RouteAccess } from "~/utils/auth.server";
import { parseTableParams } from "~/utils/datatable.server";
import { displayDateTime } from "~/utils/time";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: null } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Test Rides" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const params = new URL(request.url).searchParams;
  const filters = { from: params.get("from"), to: params.get("to") };
  return Response.json(listTestRides(user.scope, parseTableParams(params), filters));
}

export default function TestRides() {
  const table = useLoaderData<typeof loader>() as {
    data: TestRideRow[];
    recordsFiltered: number;
    input: Record<string, string>;
  };
  const [params] = useSearchParams();
  const download = `/api/v1/test-ride/download?${new URLSearchParams({
    from: params.get("from") ?? "",
    to: params.get("to") ?? "",
  })}`;
  return (
    <>
      <h1>Test Rides</h1>
      <DataTable
        rows={table.data}
        rowKey={(r) => r.id}
        rowHref={(r) => `/admin/test-ride/${r.slug}`}
        recordsFiltered={table.recordsFiltered}
        start={Number(params.get("start") ?? 0)}
        search={params.get("search") ?? ""}
        filters={
          <>
            <label>
              <span>From</span>
              <input type="datetime-local" name="from" step={3600} defaultValue={params.get("from") ?? ""} />
            </label>
            <label>
              <span>To</span>
              <input type="datetime-local" name="to" step={3600} defaultValue={params.get("to") ?? ""} />
            </label>
          </>
        }
        actions={
          <a className="button" href={download} download="TestRides.xls">
            Download
          </a>
        }
        columns={[
          { key: "model", header: "Model", render: (r) => r.bike_model.title },
          { key: "name", header: "Name" },
          { key: "email", header: "Email" },
          { key: "phone", header: "Phone" },
          { key: "state", header: "State" },
          { key: "district", header: "District" },
          { key: "city", header: "City" },
          { key: "branch", header: "Branch", render: (r) => r.branch.title },
          { key: "type", header: "Type" },
          { key: "registered", header: "Registered", render: (r) => displayDateTime(r.created_at) },
          { key: "referrer", header: "Referrer", render: (r) => r.referrer?.title ?? "" },
        ]}
      />
    </>
  );
}
