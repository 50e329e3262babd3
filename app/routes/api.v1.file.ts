import type { LoaderFunctionArgs } from "@remix-run/node";
import { fail } from "~/models/failure";
import { isPickerType, listPickerFiles, pickerTypesFor, PICKER_TYPES, type PickerType } from "~/models/file.server";
import { apiData, requireApiUser } from "~/utils/api.server";
import { getOptionalUser, clientAddress, type Staff } from "~/utils/auth.server";
import { apiFailure } from "~/utils/http.server";
import { scopeOf } from "~/models/scope.server";

export const FILE_TYPE_MESSAGE = `Choose a file type: ${PICKER_TYPES.join(", ")}.`;

/**
 * Who may use the file picker: a bearer token (API rules), or the back-office
 * session of the picker in the browser, always answered as JSON (401 without
 * either, 403 without a permission of a form that picks images).
 */
export async function requirePickerUser(request: Request): Promise<{ user: Staff; types: PickerType[] }> {
  let user: Staff;
  if (request.headers.has("Authorization")) user = await requireApiUser(request, null);
  else {
    const session = await getOptionalUser(request);
    if (!session) throw apiFailure(fail.unauthenticated("Unauthenticated."));
    user = { ...session, scope: scopeOf(session), address: clientAddress(request) };
  }
  const types = pickerTypesFor(user);
  if (!types.length) throw apiFailure(fail.forbidden("This action is unauthorized."));
  return { user, types };
}

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
