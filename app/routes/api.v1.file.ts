import type { LoaderFunctionArgs } from "@remix-run/node";
import { fail } from "~/utils/failure";
import { isPickerType, listPickerFiles, type PickerType, FILE_TYPE_MESSAGE } from "~/models/file.server";
import { apiData, requirePickerUser } from "~/http/api.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/**
 * GET /api/v1/file?type=bike-model|video|logo|general: the newest images of
 * that type for the picker (all the caller may use without a type), each
 * {id, key, url, filename, thumbnail, type, width, height, created_at}.
 * 401 / 403 as above; 422 for an unknown type; 403 for a type the caller may not use.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { types } = await requirePickerUser(request);
  const params = new URL(request.url).searchParams;
  const type = params.get("type");
  if (type) {
    if (!isPickerType(type)) return apiFailure(fail.field("type", FILE_TYPE_MESSAGE));
    if (!types.includes(type)) return apiFailure(fail.forbidden("This action is unauthorized."));
  }
  const limit = Number(params.get("limit") ?? "") || undefined;
  return apiData(listPickerFiles(type ? [type as PickerType] : types, limit));
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
