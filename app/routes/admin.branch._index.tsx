import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { DataTable } from "~/components/DataTable";
import { DownloadLink } from "~/components/TableFilters";
import { CreateLink } from "~/components/Guard";
import { catalogueLinks } from "~/components/catalogue/styles";
import { listBranchesTable, type BranchRow } from "~/models/branch.server";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseTableParams } from "~/utils/datatable.server";

export { AdminErrorBoundary as ErrorBoundary } from "~/components/AdminErrorBoundary";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "read-branch" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Branches" }];
export const links = catalogueLinks;

/** GET /admin/branch: the paged, searchable list (spec 001 §2.4) with Total Sales; a branch user sees its own. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  return { table: listBranchesTable(user.scope, parseTableParams(new URL(request.url).searchParams)) };
}

export default function Branches() {
  const { table } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const search = params.get("search") ?? "";
  const download = `/api/v1/branch/export${search ? `?${new URLSearchParams({ search })}` : ""}`;
  return (
    <>
      <h1>Branches</h1>
      <DataTable<BranchRow>
        table={table}
        rowKey={(r) => r.id}
        rowHref={(r) => `/admin/branch/${r.slug}`}
        search={search}
        searchLabel="Search branches"
        actions={
          <>
            <CreateLink to="/admin/branch/create" permission="create-branch" />
            <DownloadLink href={download} file="Branches.xls" />
          </>
        }
        columns={[
          {
            key: "title",
            wrap: true,
            header: "Title",
            render: (r) => (
              <>
                {r.title}
                {r.closed_at ? <span className="badge closed">Closed</span> : null}
              </>
            ),
          },
          { key: "state", header: "State" },
          { key: "district", header: "District" },
          { key: "city", header: "City" },
          { key: "location", wrap: true, header: "Location" },
          { key: "phone", header: "Phone" },
          { key: "mobile", header: "Mobile" },
          { key: "registrations_count", header: "Total Sales" },
        ]}
      />
    </>
  );
}
