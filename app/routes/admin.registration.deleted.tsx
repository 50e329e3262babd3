import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { DataTable } from "~/components/DataTable";
import { counterLinks } from "~/components/counter/styles";
import { listDeletedRegistrations, readRegistrationFilters } from "~/models/registration.server";
import { requireRouteAccess, type RouteAccess } from "~/utils/auth.server";
import { parseTableParams } from "~/utils/datatable.server";
import { displayDateTime } from "~/utils/time";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "delete-registration" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Deleted Registrations" }];
export const links = counterLinks;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const params = new URL(request.url).searchParams;
  return {
    table: listDeletedRegistrations(user.scope, parseTableParams(params), readRegistrationFilters(params)),
    headOffice: user.scope.branchId === null,
  };
}

export default function DeletedRegistrations() {
  const { table, headOffice } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  return (
    <>
      <h1>Deleted Registrations</h1>
      <DataTable
        rows={table.data}
        rowKey={(r) => r.id}
        rowHref={(r) => `/admin/registration/${r.slug}`}
        recordsFiltered={table.recordsFiltered}
        start={Number(params.get("start") ?? 0)}
        search={params.get("search") ?? ""}
        columns={[
          { key: "name", header: "Name" },
          { key: "phone", header: "Phone" },
          { key: "bill_no", header: "Bill No" },
          { key: "model", header: "Model", render: (r) => r.bike_model.title },
          { key: "engine_no", header: "Engine No" },
          ...(headOffice
            ? [{ key: "branch", header: "Branch", render: (r: (typeof table.data)[number]) => r.branch.title }]
            : []),
          { key: "deleted_at", header: "Deleted", render: (r) => (r.deleted_at ? displayDateTime(r.deleted_at) : "") },
        ]}
      />
    </>
  );
}
