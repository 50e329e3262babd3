import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { VideoForm } from "~/components/catalogue/VideoForm";
import { readPickerForm, withUpload } from "~/http/picker-form.server";
import { pickerChoices } from "~/models/file.server";
import { catalogueLinks } from "~/components/catalogue/styles";
import { createVideo } from "~/models/video.server";
import { videoSchema } from "~/schemas/video";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseValue } from "~/http/body.server";
import { replyFailure } from "~/http/http.server";
import { redirectWithToast, success } from "~/http/toast.server";

export { AdminErrorBoundary as ErrorBoundary } from "~/components/AdminErrorBoundary";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "create-video" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Create Video" }];
export const links = catalogueLinks;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess(request, handle);
  return { files: pickerChoices("video") };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const { form, upload } = await readPickerForm(request, user, { field: "thumbnail", type: "video" });
  const parsed = await parseValue({ kind: "form", form }, videoSchema);
  if (upload) return replyFailure(form, withUpload(upload, parsed.ok ? null : parsed));
  const result = parsed.ok ? createVideo(user, parsed.value) : parsed;
  if (!result.ok) return replyFailure(form, result);
  return redirectWithToast(
    `/admin/video/${result.video.slug}`,
    success("Video created. It shows on the winner list now."),
  );
}

const EMPTY = { title: "", url: "", amount: "", citizenship_no: "", phone: "", thumbnail: "" };

export default function CreateVideo() {
  const { files } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <>
      <h1>Create Video</h1>
      <VideoForm id="video-create" defaults={EMPTY} files={files} reply={reply} cancelTo="/admin/video" />
    </>
  );
}
