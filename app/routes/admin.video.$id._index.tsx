import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DeleteForm } from "~/components/ConfirmSubmit";
import { Guard } from "~/components/Guard";
import { catalogueLinks } from "~/components/catalogue/styles";
import { deleteVideo, getVideo, VIDEO_ERRORS } from "~/models/video.server";
import { videoAmountLabel } from "~/schemas/video";
import { requireIntent, requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { notFound, pageFailure } from "~/http/http.server";
import { displayDateTime } from "~/utils/time";
import { redirectWithToast, success } from "~/http/toast.server";
import { DetailList } from "~/components/DetailList";

export { AdminErrorBoundary as ErrorBoundary } from "~/components/AdminErrorBoundary";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "read-video", intents: { delete: "update-video" } } as const satisfies RouteAccess;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.video.title ?? "Video" }];
export const links = catalogueLinks;

/** The {id} segment takes the video's slug (docs/decisions/0009: no sequential ids in addresses). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRouteAccess(request, handle);
  const video = getVideo(params.id ?? "");
  if (!video) throw notFound(VIDEO_ERRORS.notFound);
  return { video };
}

/** intent=delete (update-video): the video leaves the winner list at once. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { staff: user } = await requireIntent(request, handle);
  const slug = params.id ?? "";
  const result = deleteVideo(user, slug);
  if (!result.ok) throw pageFailure(result);
  return redirectWithToast("/admin/video", success(`Video "${result.video.title}" deleted.`));
}

export default function VideoDetail() {
  const { video } = useLoaderData<typeof loader>();
  const rows: [string, string][] = [
    ["Title", video.title],
    ["Registration ID", video.citizenship_no ?? "—"],
    ["Amount", videoAmountLabel(video.amount)],
    ["Phone", video.phone ?? "—"],
    ["Added", displayDateTime(video.created_at)],
  ];
  return (
    <>
      <h1>{video.title}</h1>
      <DetailList rows={rows}>
        <div>
          <dt>Url</dt>
          <dd>
            <a href={video.url} target="_blank" rel="noopener noreferrer">
              {video.url}
            </a>
          </dd>
        </div>
      </DetailList>
      <section className="detail-section" aria-labelledby="thumb-title">
        <h2 id="thumb-title">Thumbnail</h2>
        {video.thumbnail_url ? (
          <img className="record-image" src={video.thumbnail_url} alt={`${video.title} thumbnail`} />
        ) : (
          <p className="muted">No thumbnail.</p>
        )}
      </section>
      <div className="actions">
        <Link to="/admin/video" className="button">
          Back
        </Link>
        <Guard permission="update-video">
          <Link to={`/admin/video/${video.slug}/edit`} className="button primary">
            Edit
          </Link>
          <DeleteForm />
        </Guard>
      </div>
    </>
  );
}
