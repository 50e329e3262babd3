/**
 * A catalogue form with its file picker (app/components/FilePicker.tsx) as
 * the server reads it: urlencoded, or multipart with the no-JavaScript upload
 * stored first through the image rules.
 */
import { fail, type Failure } from "~/utils/failure";
import { uploadFailure, uploadImages, UPLOAD_FAILED, type PickerType } from "~/models/file.server";
import type { ScopedActor } from "~/models/scope.server";
import { BODY_LIMITS, readBody } from "./body.server";
import { pageFailure } from "./http.server";

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
