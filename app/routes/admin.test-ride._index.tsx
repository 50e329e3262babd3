import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { label } from "~/utils/labels";
import { DateText } from "~/components/DateText";
import { EmailText } from "~/components/EmailText";
import { useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/DataTable";
import { DownloadLink, FilterErrors, FilterRange, useFilterQuery } from "~/components/TableFilters";
import { counterLinks } from "~/components/counter/styles";
import { listTestRides } from "~/models/test-ride.server";
import { testRideFiltersSchema } from "~/schemas/test-ride";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { listPage, parseListQuery } from "~/http/list-query.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: null } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Test Rides" }];
export const links = counterLinks;

/** The bookings of the From/To range (a To date includes its day); a bad date shows its message under it (422). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const params = new URL(request.url).searchParams;
  const query = parseListQuery(params, testRideFiltersSchema);
  return listPage(params, query, (table, filters) => listTestRides(user.scope, table, filters));
}

export default function TestRides() {
  const { table, filterErrors } = useLoaderData<typeof loader>();
  const download = `/api/v1/test-ride/download?${useFilterQuery(["from", "to"])}`;
  return (
    <>
      <h1>Test Rides</h1>
      <DataTable
        table={table}
        rowKey={(r) => r.id}
        rowHref={(r) => `/admin/test-ride/${r.slug}`}
        filters={
          <>
            <FilterErrors errors={filterErrors} shown={["from", "to"]} />
            <FilterRange errors={filterErrors} />
          </>
        }
        actions={<DownloadLink href={download} file="TestRides.xls" />}
        columns={[
          { key: "model", wrap: true, header: "Model", render: (r) => r.bike_model.title },
          { key: "name", wrap: true, header: "Name" },
          {
            key: "email",
            wrap: true,
            header: "Email",
            // May take two lines, at the @.
            render: (r) => <EmailText email={r.email} />,
          },
          { key: "phone", header: "Phone" },
          { key: "state", wrap: true, header: "State" },
          { key: "district", wrap: true, header: "District" },
          { key: "city", wrap: true, header: "City" },
          { key: "branch", wrap: true, header: "Branch", render: (r) => r.branch.title },
          { key: "type", header: "Type", render: (r) => label("test_ride_type", r.type) },
          { key: "registered", header: "Registered", render: (r) => <DateText at={r.created_at} time /> },
          { key: "referrer", wrap: true, header: "Referrer", render: (r) => r.referrer?.title ?? "" },
        ]}
      />
    </>
  );
}
