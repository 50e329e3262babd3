import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { FilterSelect } from "~/components/TableFilters";
import { ThumbCell } from "~/components/catalogue/ThumbCell";
import { DataTable } from "~/components/DataTable";
import { CreateLink } from "~/components/Guard";
import { catalogueLinks } from "~/components/catalogue/styles";
import { listVideosTable, type VideoRow } from "~/models/video.server";
import { VIDEO_AMOUNTS, videoAmountLabel, videoFiltersSchema } from "~/schemas/video";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseTableParams } from "~/utils/datatable.server";
import { parseQuery } from "~/http/query.server";

export { AdminErrorBoundary as ErrorBoundary } from "~/components/AdminErrorBoundary";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "read-video" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Videos" }];
export const links = catalogueLinks;

/** GET /admin/video?amount&search: the winner videos, newest first, with the prize filter (spec 001 §2.7). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess(request, handle);
  const params = new URL(request.url).searchParams;
  const { value: filters, errors } = parseQuery(params, videoFiltersSchema);
  return { table: listVideosTable(parseTableParams(params), filters), errors };
}

export default function Videos() {
  const { table, errors } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Videos</h1>
      <DataTable<VideoRow>
        table={table}
        rowKey={(r) => r.id}
        rowHref={(r) => `/admin/video/${r.slug}`}
        searchLabel="Search title or Registration ID"
        filters={
          <FilterSelect
            name="amount"
            label="Prize"
            all="All prizes"
            options={VIDEO_AMOUNTS.map((a) => ({ value: a.amount, label: a.label }))}
            errors={errors.amount}
          />
        }
        actions={<CreateLink to="/admin/video/create" permission="create-video" />}
        columns={[
          {
            key: "title",
            header: "Title",
            render: (r) => <ThumbCell src={r.thumbnail_url}> {r.title}</ThumbCell>,
          },
          { key: "citizenship_no", header: "Registration ID", render: (r) => r.citizenship_no ?? "" },
          { key: "amount", header: "Amount", render: (r) => videoAmountLabel(r.amount) },
        ]}
      />
    </>
  );
}
