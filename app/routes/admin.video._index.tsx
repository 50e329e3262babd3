import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { DataTable } from "~/components/DataTable";
import { FieldError } from "~/components/Field";
import { Guard } from "~/components/Guard";
import { catalogueLinks } from "~/components/catalogue/styles";
import { listVideosTable, type VideoRow } from "~/models/video.server";
import { VIDEO_AMOUNTS, videoAmountLabel, videoFiltersSchema } from "~/schemas/video";
import { requireRouteAccess, type RouteAccess } from "~/utils/auth.server";
import { parseTableParams } from "~/utils/datatable.server";
import { parseQuery } from "~/utils/query.server";

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
  const [params] = useSearchParams();
  return (
    <>
      <h1>Videos</h1>
      <DataTable<VideoRow>
        rows={table.data}
        rowKey={(r) => r.id}
        rowHref={(r) => `/admin/video/${r.slug}`}
        recordsFiltered={table.recordsFiltered}
        start={Number(params.get("start") ?? 0)}
        search={params.get("search") ?? ""}
        searchLabel="Search title or Registration ID"
        filters={
          <label>
            <span>Prize</span>
            <select name="amount" defaultValue={params.get("amount") ?? ""}>
              <option value="">All prizes</option>
              {VIDEO_AMOUNTS.map((a) => (
                <option key={a.amount} value={a.amount}>
                  {a.label}
                </option>
              ))}
            </select>
            <FieldError errors={errors.amount} />
          </label>
        }
        actions={
          <Guard permission="create-video">
            <Link to="/admin/video/create" className="button primary">
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
              </span>
            ),
          },
          { key: "citizenship_no", header: "Registration ID", render: (r) => r.citizenship_no ?? "" },
          { key: "amount", header: "Amount", render: (r) => videoAmountLabel(r.amount) },
        ]}
      />
    </>
  );
}
