import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BikeModelForm } from "~/components/catalogue/BikeModelForm";
import { readPickerForm, withUpload } from "~/http/picker-form.server";
import { pickerChoices } from "~/models/file.server";
import { catalogueLinks } from "~/components/catalogue/styles";
import { createBikeModel } from "~/models/bike-model.server";
import { bikeModelSchema } from "~/schemas/bike-model";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseValue } from "~/http/body.server";
import { replyFailure } from "~/http/http.server";
import { redirectWithToast, success } from "~/http/toast.server";

export { AdminErrorBoundary as ErrorBoundary } from "~/components/AdminErrorBoundary";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "create-bike-model" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Create Bike Model" }];
export const links = catalogueLinks;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess(request, handle);
  return { files: pickerChoices("bike-model") };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const { form, upload } = await readPickerForm(request, user, { field: "thumbnail", type: "bike-model" });
  const parsed = await parseValue({ kind: "form", form }, bikeModelSchema);
  if (upload) return replyFailure(form, withUpload(upload, parsed.ok ? null : parsed));
  const result = parsed.ok ? createBikeModel(user, parsed.value) : parsed;
  if (!result.ok) return replyFailure(form, result);
  return redirectWithToast(
    `/admin/bike-model/${result.bikeModel.slug}`,
    success(`Bike model "${result.bikeModel.title}" created. It shows on the public forms now.`),
  );
}

export default function CreateBikeModel() {
  const { files } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <>
      <h1>Create Bike Model</h1>
      <BikeModelForm
        id="bike-model-create"
        defaults={{ title: "", thumbnail: "" }}
        files={files}
        reply={reply}
        cancelTo="/admin/bike-model"
      />
    </>
  );
}
