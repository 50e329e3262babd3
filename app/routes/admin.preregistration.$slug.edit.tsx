import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useCounterFields } from "~/components/counter/form";
import { PreregistrationFields, type PreregFieldset } from "~/components/counter/PreregistrationFields";
import { counterLinks } from "~/components/counter/styles";
import { listBikeModels } from "~/models/bike-model.server";
import { listBranchOptions } from "~/models/branch.server";
import {
  findPreregistration,
  PREREGISTRATION_ADMIN_MESSAGES as A,
  updatePreregistration,
} from "~/models/preregistration-admin.server";
import { preregistrationEditSchema } from "~/schemas/preregistration";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { BODY_LIMITS, parseValue, readForm } from "~/http/body.server";
import { echoForm, fileField } from "~/http/echo.server";
import { replyFailure, preregistrationNotFound } from "~/http/http.server";
import { oops, redirectWithToast, success } from "~/http/toast.server";
import { isHeadOffice } from "~/models/scope.server";
import { SaveCancel } from "~/components/FormActions";
import { FormError } from "~/components/Field";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "update-registration" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Edit Pre-Registration" }];
export const links = counterLinks;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const pre = findPreregistration(user.scope, params.slug!);
  if (!pre) throw await preregistrationNotFound();
  if (pre.purchased) throw await redirectWithToast(`/admin/preregistration/${pre.slug}`, oops(A.purchasedNoEdit));
  return {
    pre: { slug: pre.slug, is_verified: pre.is_verified, screenshot_url: pre.screenshot_url },
    defaultValue: {
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
    },
    // What the entry already names stays offered, though retired or closed since.
    bikeModels: listBikeModels({ keep: pre.bike_model_id }).map((m) => ({ id: m.id, title: m.title })),
    branches: isHeadOffice(user.scope) ? listBranchOptions({ keep: pre.branch_id }) : null,
  };
}

/** Saves the whole form (an emptied optional field is cleared); head office may move it to another branch. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const form = await readForm(request, { limit: BODY_LIMITS.upload });
  const parsed = await parseValue({ kind: "form", form }, preregistrationEditSchema);
  const res = parsed.ok
    ? await updatePreregistration(user, params.slug!, parsed.value, { file: fileField(form, "screenshot") })
    : parsed;
  if (res.ok) return redirectWithToast(`/admin/preregistration/${res.row.slug}`, success(A.updated));
  if (res.code === "not_found") throw await preregistrationNotFound(res);
  if (res.code === "conflict") return redirectWithToast(`/admin/preregistration/${params.slug}`, oops(res.message));
  return replyFailure(echoForm(form), res);
}

export default function EditPreregistration() {
  const { pre, defaultValue, bikeModels, branches } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const [form, fields] = useCounterFields({
    id: "prereg-edit",
    schema: preregistrationEditSchema,
    lastResult: answer?.result,
    defaultValue,
  });
  return (
    <>
      <h1>Edit Pre-Registration</h1>
      <Form method="post" encType="multipart/form-data" className="card counter-form" {...getFormProps(form)}>
        <FormError errors={form.errors} />
        <PreregistrationFields
          fields={fields as unknown as PreregFieldset}
          bikeModels={bikeModels}
          branches={branches}
          branchRequired={false}
          phoneLocked={pre.is_verified}
          hasScreenshot={Boolean(pre.screenshot_url)}
        />
        <SaveCancel cancelTo={`/admin/preregistration/${pre.slug}`} />
      </Form>
    </>
  );
}
