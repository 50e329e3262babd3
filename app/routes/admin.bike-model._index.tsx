import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { DataTable } from "~/components/DataTable";
import { Guard } from "~/components/Guard";
import { catalogueLinks } from "~/components/catalogue/styles";
import { listBikeModelsTable, type BikeModelRow } from "~/models/bike-model.server";
import { requireRouteAccess, type RouteAccess } from "~/utils/auth.server";
import { parseTableParams } from "~/utils/datatable.server";

export { AdminErrorBoundary as ErrorBoundary } from "~/components/AdminErrorBoundary";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "read-bike-model" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Bike Models" }];
export const links = catalogueLinks;

/** GET /admin/bike-model: the paged, searchable list (title with its thumbnail; retired models marked). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess(request, handle);
  return { table: listBikeModelsTable(parseTableParams(new URL(request.url).searchParams)) };
}

export default function BikeModels() {
  const { table } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  return (
    <>
      <h1>Bike Models</h1>
      <DataTable<BikeModelRow>
        rows={table.data}
        rowKey={(r) => r.id}
        rowHref={(r) => `/admin/bike-model/${r.slug}`}
        recordsFiltered={table.recordsFiltered}
        start={Number(params.get("start") ?? 0)}
        search={params.get("search") ?? ""}
        searchLabel="Search models"
        actions={
          <Guard permission="create-bike-model">
            <Link to="/admin/bike-model/create" className="button primary">
              Create
            </Link>
          </Guard>
        }
        columns={[
          {
            key: "title",
            header: "Title",
            render: (r) => (
              <span className="thumb-cell">
                {r.thumbnail_url ? (
                  <img src={r.thumbnail_url} alt="" width={64} height={40} loading="lazy" />
                ) : (
                  <span className="no-image" />
                )}
                {r.title}
                {r.retired_at ? <span className="badge">Retired</span> : null}
              </span>
            ),
          },
        ]}
      />
    </>
  );
}
