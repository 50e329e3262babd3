import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { DataTable } from "~/components/DataTable";
import { RegistrationFilters, useFilterQuery } from "~/components/counter/RegistrationFilters";
import { counterLinks } from "~/components/counter/styles";
import { listBikeModels } from "~/models/bike-model.server";
import { listBranchOptions } from "~/models/branch.server";
import { prizeLabel } from "~/models/prize-constants";
import { listRegistrations, readRegistrationFilters } from "~/models/registration.server";
import { REGISTRATION_FILTER_KEYS } from "~/schemas/registration";
import { requireRouteAccess, type RouteAccess } from "~/utils/auth.server";
import { parseTableParams } from "~/utils/datatable.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "read-registration" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Registrations" }];
export const links = counterLinks;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const params = new URL(request.url).searchParams;
  const table = listRegistrations(user.scope, parseTableParams(params), readRegistrationFilters(params));
  return {
    table,
    headOffice: user.scope.branchId === null,
    bikeModels: listBikeModels().map((m) => ({ id: m.id, title: m.title })),
    branches: user.scope.branchId === null ? listBranchOptions() : null,
  };
}

const FILE_KEYS = [...REGISTRATION_FILTER_KEYS.filter((k) => k !== "slug"), "search"] as const;

export default function Registrations() {
  const { table, headOffice, bikeModels, branches } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const query = useFilterQuery(FILE_KEYS);
  return (
    <>
      <h1>Registrations</h1>
      <DataTable
        rows={table.data}
        rowKey={(r) => r.id}
        rowHref={(r) => `/admin/registration/${r.slug}`}
        recordsFiltered={table.recordsFiltered}
        start={Number(params.get("start") ?? 0)}
        search={params.get("search") ?? ""}
        searchLabel="Search"
        filters={<RegistrationFilters bikeModels={bikeModels} branches={branches} />}
        actions={
          <>
            <a
              className="button"
              href={`/api/v1/registration/download${query ? `?${query}` : ""}`}
              download="Registrations.xls"
            >
              Download
            </a>
            <a className="button" href={`/admin/print${query ? `?${query}` : ""}`} target="_blank" rel="noreferrer">
              Print
            </a>
          </>
        }
        columns={[
          { key: "name", header: "Name" },
          { key: "phone", header: "Phone" },
          { key: "bill_no", header: "Bill No" },
          { key: "model", header: "Model", render: (r) => r.bike_model.title },
          { key: "engine_no", header: "Engine No" },
          { key: "chasis_no", header: "Chassis No" },
          { key: "payment_mode", header: "Payment Mode" },
          ...(headOffice
            ? [{ key: "branch", header: "Branch", render: (r: (typeof table.data)[number]) => r.branch.title }]
            : []),
          { key: "status", header: "Status" },
          { key: "prize", header: "Total Prize", render: (r) => prizeLabel(r.prizes.total) },
          { key: "date", header: "Date of Purchase", render: (r) => r.purchase_date.replaceAll("-", "/") },
        ]}
      />
    </>
  );
}
