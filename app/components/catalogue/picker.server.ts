/**
 * The server side of the file picker in a catalogue form (see
 * app/components/FilePicker.tsx): the images offered, and the form's own
 * upload when the browser runs no JavaScript.
 */
import { fail, type Failure } from "~/models/failure";
import {
  pickerTypesFor,
  PICKER_TYPES,
  uploadFailure,
  uploadImages,
  UPLOAD_FAILED,
  type PickerType,
} from "~/models/file.server";
import { scopeOf, type ScopedActor } from "~/models/scope.server";
import { requireApiUser } from "~/utils/api.server";
import { clientAddress, getOptionalUser, type Staff } from "~/utils/auth.server";
import { BODY_LIMITS, readBody } from "~/utils/body.server";
import { apiFailure, pageFailure } from "~/utils/http.server";

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
 * Reads a catalogue form (urlencoded, or multipart up to the upload limit). An
 * image in `${field}_upload` (the no-JavaScript file input) is stored first
 * through the image rules and becomes the field's value, so it stays chosen
 * even when another field is refused. A refused image is the spec's upload
 * failure on the field; everything else typed comes back as it was.
 */
export async function readPickerForm(
  request: Request,
  actor: ScopedActor,
  { field, type }: { field: string; type: PickerType },
): Promise<{ form: FormData; upload: Failure | null }> {
  const body = await readBody(request, {
    accept: ["urlencoded", "multipart"],
    limit: BODY_LIMITS.upload,
    optional: true,
  });
  if ("ok" in body) {
    if (body.code !== "too_large") throw pageFailure(body);
    return { form: new FormData(), upload: uploadFailure(field, body.message) };
  }
  const form = body.kind === "form" ? body.form : new FormData();
  const file = form.get(`${field}_upload`);
  form.delete(`${field}_upload`);
  if (!(file instanceof File) || (file.size === 0 && !file.name)) return { form, upload: null };
  const result = await uploadImages(actor, {
    type,
    field,
    files: [{ filename: file.name, bytes: Buffer.from(await file.arrayBuffer()) }],
  });
  if (!result.ok) return { form, upload: result };
  form.set(field, String(result.files[0].id));
  return { form, upload: null };
}

/** The form's failure with the upload's error beside the other fields' errors. */
export function withUpload(upload: Failure, other: Failure | null): Failure {
  return fail.invalid({ ...(other?.code === "invalid" ? other.errors : {}), ...upload.errors }, UPLOAD_FAILED);
}
