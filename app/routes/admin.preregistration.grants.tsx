import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/DataTable";
import { DateText } from "~/components/DateText";
import { BranchFilter, DownloadLink, FilterErrors, FilterRange, useFilterQuery } from "~/components/TableFilters";
import { counterLinks } from "~/components/counter/styles";
import { listBranchOptions } from "~/models/branch.server";
import { listGrants } from "~/models/counter-grant.server";
import { isHeadOffice } from "~/models/scope.server";
import { GRANT_FILTER_KEYS, grantFiltersSchema } from "~/schemas/grants";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { listPage, parseListQuery } from "~/http/list-query.server";
import { maskPhone } from "~/utils/phone";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "read-registration" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Counter Grants" }];
export const links = counterLinks;

/**
 * GET /admin/preregistration/grants: the public entries of other showrooms that branches opened at their
 * counter by the customer's phone (decision 5): when, which branch, who, which entry. Head office sees every
 * branch's and filters by branch; a branch user its own. A bad filter shows its message under it (422).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const params = new URL(request.url).searchParams;
  const query = parseListQuery(params, grantFiltersSchema);
  const headOffice = isHeadOffice(user.scope);
  return listPage(params, query, (table, filters) => listGrants(user.scope, table, filters), {
    branches: headOffice ? listBranchOptions({ includeClosed: true }) : null,
  });
}

export default function CounterGrants() {
  const { table, filterErrors, branches } = useLoaderData<typeof loader>();
  const download = `/api/v1/preregistration/grants/download?${useFilterQuery(GRANT_FILTER_KEYS, filterErrors)}`;
  return (
    <>
      <h1>Counter Grants</h1>
      <p>
        Public pre-registrations of another showroom that a branch opened at its counter by the customer&apos;s full
        phone number. <Link to="/admin/preregistration">Back to Pre-Registrations</Link>
      </p>
      <DataTable
        table={table}
        rowKey={(r) => `${r.branch.id}:${r.preregistration.slug}`}
        rowHref={(r) => `/admin/preregistration/${r.preregistration.slug}`}
        searchLabel="Customer, reference, branch or staff"
        filters={
          <>
            <FilterErrors errors={filterErrors} shown={[...GRANT_FILTER_KEYS]} />
            {branches ? <BranchFilter branches={branches} errors={filterErrors?.branch} /> : null}
            <FilterRange errors={filterErrors} />
          </>
        }
        actions={<DownloadLink href={download} file="Grants.xls" />}
        columns={[
          { key: "granted_at", header: "Granted", render: (r) => <DateText at={r.granted_at} time /> },
          { key: "branch", wrap: true, header: "Branch", render: (r) => r.branch.title },
          {
            key: "by",
            wrap: true,
            header: "By",
            render: (r) => (r.granted_by ? `${r.granted_by.name} (${r.granted_by.email})` : ""),
          },
          { key: "customer", wrap: true, header: "Customer", render: (r) => r.preregistration.name },
          { key: "phone", header: "Phone", render: (r) => maskPhone(r.preregistration.phone) },
          { key: "ref", header: "Reference", render: (r) => r.preregistration.ref },
          {
            key: "nearest",
            wrap: true,
            header: "Nearest Branch",
            render: (r) => r.preregistration.nearest_branch?.title ?? "",
          },
        ]}
      />
    </>
  );
}
