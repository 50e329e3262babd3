import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { getFormProps } from "@conform-to/react";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { RegistrationFields, useRegistrationForm } from "~/components/counter/RegistrationFields";
import { counterLinks } from "~/components/counter/styles";
import { listBikeModels } from "~/models/bike-model.server";
import { billWithoutPrefix, updateRegistration } from "~/models/registration.server";
import { findRegistration } from "~/models/registration-list.server";
import { registrationUpdateSchema } from "~/schemas/registration";
import { requirePermission, requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseValue, readForm } from "~/http/body.server";
import { notFound, pageFailure, replyFailure } from "~/http/http.server";
import { oops, redirectWithToast, success } from "~/http/toast.server";
import { SaveCancel } from "~/components/FormActions";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "read-registration" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Edit Registration" }];
export const links = counterLinks;

/** The route table gives read-registration; changing a registration needs update-registration. */
async function requireEditor(request: Request) {
  await requireRouteAccess(request, handle);
  return requirePermission(request, "update-registration");
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireEditor(request);
  const reg = findRegistration(user.scope, params.slug!);
  if (!reg) throw notFound();
  return {
    reg: { slug: reg.slug, phone: reg.phone, branch_id: reg.branch_id, purchase_date: reg.purchase_date },
    defaultValue: {
      bill_no: billWithoutPrefix(reg.branch_id, reg.bill_no),
      name: reg.name,
      address: reg.address,
      email: reg.email ?? "",
      citizenship_no: reg.citizenship_no,
      pan: reg.pan ?? "",
      bike_model_id: String(reg.bike_model_id),
      engine_no: reg.engine_no,
      chasis_no: reg.chasis_no,
      registration_no: reg.registration_no,
      payment_mode: reg.payment_mode,
      note: reg.note ?? "",
      send_sms: reg.send_sms ? "on" : "",
      referred_by: reg.referred_by ?? "",
    },
    // The registration's own model stays offered, though retired since.
    bikeModels: listBikeModels({ keep: reg.bike_model_id }).map((m) => ({ id: m.id, title: m.title })),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireEditor(request);
  const form = await readForm(request);
  const parsed = await parseValue({ kind: "form", form }, registrationUpdateSchema);
  if (!parsed.ok) return replyFailure(form, parsed);
  const outcome = updateRegistration(user, params.slug!, parsed.value);
  if (outcome.ok) {
    return redirectWithToast(`/admin/registration/${outcome.registration.slug}`, success("Registration updated."));
  }
  if (outcome.code === "not_found") throw pageFailure(outcome);
  if (outcome.code === "conflict")
    return redirectWithToast(`/admin/registration/${params.slug}`, oops(outcome.message));
  return replyFailure(form, outcome);
}

export default function EditRegistration() {
  const { reg, defaultValue, bikeModels } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useRegistrationForm({
    id: "registration-edit",
    schema: registrationUpdateSchema,
    lastResult: actionData?.result,
    defaultValue,
  });
  return (
    <>
      <h1>Edit Registration</h1>
      <Form method="post" {...getFormProps(form)} className="card counter-form">
        {form.errors?.length ? (
          <p className="form-error" role="alert" id={form.errorId}>
            {form.errors[0]}
          </p>
        ) : null}
        <RegistrationFields
          fields={fields}
          branchId={reg.branch_id}
          phone={reg.phone}
          purchaseDate={reg.purchase_date}
          bikeModels={bikeModels}
        />
        <SaveCancel cancelTo={`/admin/registration/${reg.slug}`} />
      </Form>
    </>
  );
}
