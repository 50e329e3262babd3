import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { PreregistrationFields, type PreregValues } from "~/components/counter/PreregistrationFields";
import { counterLinks } from "~/components/counter/styles";
import { listBikeModels } from "~/models/bike-model.server";
import { listBranchOptions } from "~/models/branch.server";
import { storeUpload, UPLOAD_FAILED, UploadError } from "~/models/file.server";
import { findPreregistration, updatePreregistration } from "~/models/preregistration-admin.server";
import { preregistrationSchema } from "~/schemas/preregistration";
import { requireRouteAccess, type RouteAccess } from "~/utils/auth.server";
import { oops, redirectWithToast, success } from "~/utils/toast.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "update-registration" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Edit Pre-Registration" }];
export const links = counterLinks;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const pre = findPreregistration(user.scope, params.slug!);
  if (!pre) throw await redirectWithToast("/admin", oops("Pre-registration not found."));
  if (pre.purchased) {
    throw await redirectWithToast(
      `/admin/preregistration/${pre.slug}`,
      oops("This pre-registration has a registration and can no longer be edited."),
    );
  }
  const values: PreregValues = {
    name: pre.name,
    address: pre.address,
    email: pre.email ?? "",
    phone: pre.phone,
    citizenship_no: pre.citizenship_no,
    shared: pre.shared ? "on" : "",
    bike_model_id: pre.bike_model_id ? String(pre.bike_model_id) : "",
    source: pre.source ?? "",
    note: pre.note ?? "",
    send_sms: pre.send_sms ? "on" : "off",
    branch_id: pre.branch_id ? String(pre.branch_id) : "",
  };
  return {
    pre: { slug: pre.slug, is_verified: pre.is_verified, screenshot_url: pre.screenshot_url },
    values,
    bikeModels: listBikeModels().map((m) => ({ id: m.id, title: m.title })),
    branches: user.scope.branchId === null ? listBranchOptions() : null,
  };
}

type ActionData = { values: PreregValues; errors: Record<string, string[]> };

export async function action({ request, params }: ActionFunctionArgs): Promise<ActionData | Response> {
  const user = await requireRouteAccess(request, handle);
  const form = await request.formData();
  const values: PreregValues = {};
  form.forEach((v, k) => {
    if (typeof v === "string") values[k] = v;
  });
  const submission = parseWithZod(form, { schema: preregistrationSchema });
  if (submission.status !== "success") {
    const errors: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(submission.error ?? {})) if (v?.length) errors[k || "form"] = v;
    return { values, errors };
  }
  const value = submission.value;
  let screenshotId: number | null | undefined;
  const file = form.get("screenshot");
  if (value.shared && file instanceof File && file.size > 0) {
    try {
      screenshotId = (await storeUpload(file, "screenshot", user.id)).id;
    } catch (e) {
      if (e instanceof UploadError) return { values, errors: { screenshot: [e.message || UPLOAD_FAILED] } };
      throw e;
    }
  } else if (!value.shared) {
    screenshotId = null;
  }
  const branchId = Number(form.get("branch_id"));
  const res = updatePreregistration(user.scope, params.slug!, {
    ...value,
    screenshot_id: screenshotId,
    branch_id: user.scope.branchId === null && branchId > 0 ? branchId : undefined,
  });
  if (!res.ok) {
    if (res.status === 404) throw await redirectWithToast("/admin", oops(res.message));
    if (res.status === 409) return redirectWithToast(`/admin/preregistration/${params.slug}`, oops(res.message));
    return { values, errors: res.errors };
  }
  return redirectWithToast(`/admin/preregistration/${res.row.slug}`, success("Pre-registration updated."));
}

export default function EditPreregistration() {
  const { pre, values, bikeModels, branches } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>() as ActionData | undefined;
  const busy = useNavigation().state === "submitting";
  const errors = data?.errors ?? {};
  return (
    <>
      <h1>Edit Pre-Registration</h1>
      <Form method="post" encType="multipart/form-data" className="card counter-form">
        {errors.form?.length ? (
          <p className="form-error" role="alert">
            {errors.form[0]}
          </p>
        ) : null}
        <input type="hidden" name="send_sms" value="off" />
        <PreregistrationFields
          values={data?.values ?? values}
          errors={errors}
          bikeModels={bikeModels}
          branches={branches}
          phoneLocked={pre.is_verified}
          hasScreenshot={Boolean(pre.screenshot_url)}
        />
        <div className="actions">
          <Link to={`/admin/preregistration/${pre.slug}`} className="button">
            Cancel
          </Link>
          <button type="submit" className="primary" disabled={busy}>
            {busy ? "Saving…" : "Save"}
          </button>
        </div>
      </Form>
    </>
  );
}
