import type { ActionFunctionArgs } from "@remix-run/node";
import { fail } from "~/utils/failure";
import { isPickerType, uploadImages, UPLOAD_FAILED, type UploadInput, FILE_TYPE_MESSAGE } from "~/models/file.server";
import { apiData, requirePickerUser } from "~/http/api.server";
import { BODY_LIMITS, readBody } from "~/http/body.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/**
 * POST /api/v1/upload (multipart: type, files[]): every image through the
 * image rules (JPEG/PNG/WebP by content, 10 MB, 40 MP; stored fit in
 * 720 x 1280 at quality 80, upright, without metadata) → 201 {data: [file
 * rows], message}. One bad image refuses the whole upload and nothing is
 * stored: 422 (413 for a body over the upload limit) with the spec's message
 * "Something went wrong! Please check the file and try again." and the reason
 * as the second message of `errors.files`. Bearer token or the back-office
 * session (the picker in the browser); 401 / 403 as JSON.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const { user, types } = await requirePickerUser(request);
  const body = await readBody(request, { accept: ["multipart"], limit: BODY_LIMITS.upload });
  if ("ok" in body) {
    if (body.code !== "too_large") return apiFailure(body);
    const mb = Math.round(BODY_LIMITS.upload / 1024 / 1024);
    return apiFailure({
      ...fail.tooLarge(UPLOAD_FAILED, "files"),
      errors: { files: [UPLOAD_FAILED, `The upload may not be larger than ${mb} MB.`] },
    });
  }
  if (body.kind !== "form") return apiFailure(fail.badRequest("Send the images as multipart/form-data."));
  const type = String(body.form.get("type") ?? "").trim() || "general";
  if (!isPickerType(type)) return apiFailure(fail.field("type", FILE_TYPE_MESSAGE));
  if (!types.includes(type)) return apiFailure(fail.forbidden("This action is unauthorized."));
  const files: UploadInput[] = [];
  for (const entry of [...body.form.getAll("files[]"), ...body.form.getAll("files"), ...body.form.getAll("file")]) {
    if (typeof entry === "string") continue;
    files.push({ filename: entry.name, bytes: Buffer.from(await entry.arrayBuffer()) });
  }
  const result = await uploadImages(user, { type, files });
  if (!result.ok) return apiFailure(result);
  return apiData(result.files, result.files.length === 1 ? "Image uploaded." : "Images uploaded.", { status: 201 });
}

/** Not a call to read: 405 with Allow. */
export const loader = () => methodNotAllowed("POST");
