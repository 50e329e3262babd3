import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BikeModelForm } from "~/components/catalogue/BikeModelForm";
import { readPickerForm, withUpload } from "~/http/picker-form.server";
import { pickerChoices } from "~/models/file.server";
import { catalogueLinks } from "~/components/catalogue/styles";
import { BIKE_MODEL_ERRORS, getBikeModel, updateBikeModel } from "~/models/bike-model.server";
import { bikeModelSchema } from "~/schemas/bike-model";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseValue } from "~/http/body.server";
import { notFound, pageFailure, replyFailure } from "~/http/http.server";
import { redirectWithToast, success } from "~/http/toast.server";

export { AdminErrorBoundary as ErrorBoundary } from "~/components/AdminErrorBoundary";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "update-bike-model" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Edit Bike Model" }];
export const links = catalogueLinks;

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRouteAccess(request, handle);
  const model = getBikeModel(params.slug ?? "");
  if (!model) throw notFound(BIKE_MODEL_ERRORS.notFound);
  return {
    model: { slug: model.slug, title: model.title },
    defaults: { title: model.title, thumbnail: model.thumbnail_id ? String(model.thumbnail_id) : "" },
    files: pickerChoices("bike-model", model.thumbnail_id),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const { form, upload } = await readPickerForm(request, user, { field: "thumbnail", type: "bike-model" });
  const parsed = await parseValue({ kind: "form", form }, bikeModelSchema);
  if (upload) return replyFailure(form, withUpload(upload, parsed.ok ? null : parsed));
  const result = parsed.ok ? updateBikeModel(user, params.slug ?? "", parsed.value) : parsed;
  if (!result.ok) {
    if (result.code === "not_found") throw pageFailure(result);
    return replyFailure(form, result);
  }
  return redirectWithToast(`/admin/bike-model/${result.bikeModel.slug}`, success("Bike model updated."));
}

export default function EditBikeModel() {
  const { model, defaults, files } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <>
      <h1>Edit Bike Model</h1>
      <p className="muted">Editing {model.title}</p>
      <BikeModelForm
        id="bike-model-edit"
        defaults={defaults}
        files={files}
        reply={reply}
        cancelTo={`/admin/bike-model/${model.slug}`}
      />
    </>
  );
}
