import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { VideoForm } from "~/components/catalogue/VideoForm";
import { readPickerForm, withUpload } from "~/http/picker-form.server";
import { pickerChoices } from "~/models/file.server";
import { catalogueLinks } from "~/components/catalogue/styles";
import { getVideo, updateVideo, VIDEO_ERRORS } from "~/models/video.server";
import { videoSchema } from "~/schemas/video";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseValue } from "~/http/body.server";
import { notFound, pageFailure, replyFailure } from "~/http/http.server";
import { redirectWithToast, success } from "~/http/toast.server";

export { AdminErrorBoundary as ErrorBoundary } from "~/components/AdminErrorBoundary";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "update-video" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Edit Video" }];
export const links = catalogueLinks;

/** The {id} segment takes the video's slug (docs/decisions/0009: no sequential ids in addresses). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRouteAccess(request, handle);
  const video = getVideo(params.id ?? "");
  if (!video) throw notFound(VIDEO_ERRORS.notFound);
  return {
    video: { slug: video.slug, title: video.title },
    defaults: {
      title: video.title,
      url: video.url,
      amount: String(video.amount),
      citizenship_no: video.citizenship_no ?? "",
      phone: video.phone ?? "",
      thumbnail: video.thumbnail_id ? String(video.thumbnail_id) : "",
    },
    files: pickerChoices("video", video.thumbnail_id),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const { form, upload } = await readPickerForm(request, user, { field: "thumbnail", type: "video" });
  const parsed = await parseValue({ kind: "form", form }, videoSchema);
  if (upload) return replyFailure(form, withUpload(upload, parsed.ok ? null : parsed));
  const result = parsed.ok ? updateVideo(user, params.id ?? "", parsed.value) : parsed;
  if (!result.ok) {
    if (result.code === "not_found") throw pageFailure(result);
    return replyFailure(form, result);
  }
  return redirectWithToast(`/admin/video/${result.video.slug}`, success("Video updated."));
}

export default function EditVideo() {
  const { video, defaults, files } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <>
      <h1>Edit Video</h1>
      <p className="muted">Editing {video.title}</p>
      <VideoForm
        id="video-edit"
        defaults={defaults}
        files={files}
        reply={reply}
        cancelTo={`/admin/video/${video.slug}`}
      />
    </>
  );
}
