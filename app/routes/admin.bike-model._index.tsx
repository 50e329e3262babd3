import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ThumbCell } from "~/components/catalogue/ThumbCell";
import { DataTable } from "~/components/DataTable";
import { CreateLink } from "~/components/Guard";
import { catalogueLinks } from "~/components/catalogue/styles";
import { listBikeModelsTable, type BikeModelRow } from "~/models/bike-model.server";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
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
  return (
    <>
      <h1>Bike Models</h1>
      <DataTable<BikeModelRow>
        table={table}
        rowKey={(r) => r.id}
        rowHref={(r) => `/admin/bike-model/${r.slug}`}
        searchLabel="Search models"
        actions={<CreateLink to="/admin/bike-model/create" permission="create-bike-model" />}
        columns={[
          {
            key: "title",
            header: "Title",
            render: (r) => (
              <ThumbCell src={r.thumbnail_url}>
                {" "}
                {r.title}
                {r.retired_at ? <span className="badge">Retired</span> : null}
              </ThumbCell>
            ),
          },
        ]}
      />
    </>
  );
}
