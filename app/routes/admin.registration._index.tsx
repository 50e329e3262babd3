import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { label } from "~/utils/labels";
import { DateText } from "~/components/DateText";
import { useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/DataTable";
import { RegistrationFilters } from "~/components/counter/RegistrationFilters";
import { DownloadLink, useFilterQuery } from "~/components/TableFilters";
import { counterLinks } from "~/components/counter/styles";
import { listBikeModels } from "~/models/bike-model.server";
import { listBranchOptions } from "~/models/branch.server";
import { prizeLabel } from "~/utils/prize-constants";
import { listRegistrations } from "~/models/registration-list.server";
import { REGISTRATION_FILTER_KEYS } from "~/schemas/registration";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { listPage, parseRegistrationQuery } from "~/http/list-query.server";
import { isHeadOffice } from "~/models/scope.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "read-registration" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Registrations" }];
export const links = counterLinks;

/** The list with its filters; a filter that cannot be read shows its message under it (422) and no rows. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const params = new URL(request.url).searchParams;
  const headOffice = isHeadOffice(user.scope);
  const query = parseRegistrationQuery(params);
  const page = {
    headOffice,
    // Filters over past records offer retired models and closed branches too.
    bikeModels: listBikeModels({ includeRetired: true }).map((m) => ({ id: m.id, title: m.title })),
    branches: headOffice ? listBranchOptions({ includeClosed: true }) : null,
  };
  return listPage(params, query, (table, filters) => listRegistrations(user.scope, table, filters), page);
}

export default function Registrations() {
  const { table, filterErrors, headOffice, bikeModels, branches } = useLoaderData<typeof loader>();
  const query = useFilterQuery(REGISTRATION_FILTER_KEYS, filterErrors);
  return (
    <>
      <h1>Registrations</h1>
      <DataTable
        table={table}
        rowKey={(r) => r.id}
        rowHref={(r) => `/admin/registration/${r.slug}`}
        searchLabel="Search"
        searchErrors={filterErrors?.search}
        filters={<RegistrationFilters bikeModels={bikeModels} branches={branches} errors={filterErrors} />}
        actions={
          <>
            <DownloadLink href={`/api/v1/registration/download${query ? `?${query}` : ""}`} file="Registrations.xls" />
            <a className="button" href={`/admin/print${query ? `?${query}` : ""}`} target="_blank" rel="noreferrer">
              Print
            </a>
          </>
        }
        columns={[
          { key: "name", header: "Name", wrap: true },
          { key: "phone", header: "Phone" },
          { key: "bill_no", code: true, header: "Bill No" },
          { key: "model", header: "Model", wrap: true, render: (r) => r.bike_model.title },
          {
            key: "payment_mode",
            header: "Payment Mode",
            wrap: true,
            render: (r) => label("payment_mode", r.payment_mode),
          },
          ...(headOffice
            ? [
                {
                  key: "branch",
                  header: "Branch",
                  wrap: true,
                  render: (r: (typeof table.data)[number]) => r.branch.title,
                },
              ]
            : []),
          { key: "status", header: "Status", wrap: true, render: (r) => label("registration_status", r.status) },
          { key: "prize", header: "Total Prize", render: (r) => prizeLabel(r.prizes.total) },
          { key: "date", header: "Date of Purchase", render: (r) => <DateText day={r.purchase_date} /> },
          { key: "engine_no", code: true, header: "Engine No" },
          { key: "chasis_no", code: true, header: "Chassis No" },
        ]}
      />
    </>
  );
}
