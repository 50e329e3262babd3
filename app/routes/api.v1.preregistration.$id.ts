import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { canSeeCodes } from "~/utils/permissions";
import { parseWithZod } from "@conform-to/zod/v4";
import { storeUpload, UPLOAD_FAILED, UploadError } from "~/models/file.server";
import {
  deletePreregistration,
  findPreregistration,
  getPreregistrationDetail,
  resolvePreregistrationKey,
  updatePreregistration,
  withStoredValues,
} from "~/models/preregistration-admin.server";
import { preregistrationSchema } from "~/schemas/preregistration";
import { apiData, apiError, notFound, readForm, requireApiUser, validationError } from "~/utils/api.server";

/** GET /api/v1/preregistration/{id} (slug or id): one pre-registration; the code only for staff allowed to see codes. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, "read-registration");
  const slug = resolvePreregistrationKey(user.scope, params.id!);
  const pre = slug ? getPreregistrationDetail(user.scope, slug, { showCode: canSeeCodes(user) }) : null;
  return pre ? apiData(pre) : notFound("Pre-registration");
}

/**
 * POST /api/v1/preregistration/{id}: update with the non-empty fields (others
 * keep their values) plus branch_id (head office). DELETE: soft delete.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method === "DELETE") {
    const user = await requireApiUser(request, "delete-registration");
    const slug = resolvePreregistrationKey(user.scope, params.id!) ?? params.id!;
    const res = deletePreregistration(user.scope, slug);
    return res.ok ? apiData(null, "Pre-registration deleted.") : apiError(res.status, res.message, res.errors);
  }
  if (request.method !== "POST") return apiError(405, "Method not allowed.");
  const user = await requireApiUser(request, "update-registration");
  const slug = resolvePreregistrationKey(user.scope, params.id!) ?? params.id!;
  const row = findPreregistration(user.scope, slug);
  if (!row) return notFound("Pre-registration");
  const form = withStoredValues(row, await readForm(request));
  const submission = parseWithZod(form, { schema: preregistrationSchema });
  if (submission.status !== "success") return validationError(submission.reply().error ?? {});
  let screenshotId: number | null | undefined;
  const file = form.get("screenshot");
  if (submission.value.shared && file instanceof File && file.size > 0) {
    try {
      screenshotId = (await storeUpload(file, "screenshot", user.id)).id;
    } catch (e) {
      if (e instanceof UploadError) return validationError({ screenshot: [e.message || UPLOAD_FAILED] });
      throw e;
    }
  } else if (!submission.value.shared) {
    screenshotId = null;
  }
  const branchId = Number(form.get("branch_id"));
  const res = updatePreregistration(user.scope, slug, {
    ...submission.value,
    screenshot_id: screenshotId,
    branch_id: user.scope.branchId === null && branchId > 0 ? branchId : undefined,
  });
  if (!res.ok) return apiError(res.status, res.message, res.errors);
  return apiData(res.row, "Pre-registration updated.");
}
