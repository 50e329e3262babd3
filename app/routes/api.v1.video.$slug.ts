import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { fail } from "~/utils/failure";
import { deleteVideo, getVideo, presentVideo, updateVideo, VIDEO_ERRORS } from "~/models/video.server";
import { videoSchema } from "~/schemas/video";
import { apiData, requireApiUser } from "~/http/api.server";
import { currentValues, parseApiUpdate } from "~/http/body.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/** GET /api/v1/video/{slug} (read-video): one video; 404 for an unknown slug. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireApiUser(request, "read-video");
  const video = getVideo(params.slug ?? "");
  return video ? apiData(presentVideo(video)) : apiFailure(fail.notFound(VIDEO_ERRORS.notFound));
}

/**
 * POST /api/v1/video/{slug} (update-video): the video's fields → 200; 422.
 * DELETE /api/v1/video/{slug} (update-video): 200. 404 for an unknown slug.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireApiUser(request, "update-video");
  const slug = params.slug ?? "";
  if (request.method === "DELETE") {
    const result = deleteVideo(user, slug);
    return result.ok ? apiData(null, "Video deleted.") : apiFailure(result);
  }
  if (request.method === "POST" || request.method === "PATCH" || request.method === "PUT") {
    const current = getVideo(slug);
    if (!current) return apiFailure(fail.notFound(VIDEO_ERRORS.notFound));
    const value = await parseApiUpdate(
      request,
      videoSchema,
      currentValues(videoSchema, current, { thumbnail: "thumbnail_id" }),
    );
    const result = updateVideo(user, slug, value);
    return result.ok ? apiData(presentVideo(result.video), "Video updated.") : apiFailure(result);
  }
  return methodNotAllowed("GET", "POST", "PUT", "PATCH", "DELETE");
}
