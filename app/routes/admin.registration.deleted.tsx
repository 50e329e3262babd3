import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { DateText } from "~/components/DateText";
import { useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/DataTable";
import { FilterErrors } from "~/components/TableFilters";
import { counterLinks } from "~/components/counter/styles";
import { listDeletedRegistrations } from "~/models/registration-list.server";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { listPage, parseRegistrationQuery } from "~/http/list-query.server";
import { isHeadOffice } from "~/models/scope.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "delete-registration" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Deleted Registrations" }];
export const links = counterLinks;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const params = new URL(request.url).searchParams;
  const query = parseRegistrationQuery(params);
  const headOffice = isHeadOffice(user.scope);
  return listPage(params, query, (table, filters) => listDeletedRegistrations(user.scope, table, filters), {
    headOffice,
  });
}

export default function DeletedRegistrations() {
  const { table, filterErrors, headOffice } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Deleted Registrations</h1>
      <DataTable
        table={table}
        rowKey={(r) => r.id}
        rowHref={(r) => `/admin/registration/${r.slug}`}
        searchErrors={filterErrors?.search}
        filters={<FilterErrors errors={filterErrors} shown={["search"]} />}
        columns={[
          { key: "name", wrap: true, header: "Name" },
          { key: "phone", header: "Phone" },
          { key: "bill_no", code: true, header: "Bill No" },
          { key: "model", wrap: true, header: "Model", render: (r) => r.bike_model.title },
          { key: "engine_no", code: true, header: "Engine No" },
          ...(headOffice
            ? [
                {
                  key: "branch",
                  wrap: true,
                  header: "Branch",
                  render: (r: (typeof table.data)[number]) => r.branch.title,
                },
              ]
            : []),
          {
            key: "deleted_at",
            header: "Deleted",
            render: (r) => (r.deleted_at ? <DateText at={r.deleted_at} time /> : ""),
          },
        ]}
      />
    </>
  );
}
