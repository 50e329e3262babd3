import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { getFormProps } from "@conform-to/react";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Details } from "~/components/counter/Details";
import { newFormToken } from "~/utils/crypto.server";
import { RegistrationFields, useRegistrationForm } from "~/components/counter/RegistrationFields";
import { counterLinks } from "~/components/counter/styles";
import { listBikeModels } from "~/models/bike-model.server";
import { findPreregistration } from "~/models/preregistration-admin.server";
import { createRegistration } from "~/models/registration.server";
import { REGISTRATION_MESSAGES, registrationSchema } from "~/schemas/registration";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseValue, readForm } from "~/http/body.server";
import { replyFailure } from "~/http/http.server";
import { kathmanduDate } from "~/utils/time";
import { oops, redirectWithToast, success } from "~/http/toast.server";
import { SaveCancel } from "~/components/FormActions";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "create-registration" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Register Purchase" }];
export const links = counterLinks;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const pre = findPreregistration(user.scope, params.slug!);
  if (!pre) throw await redirectWithToast("/admin", oops(REGISTRATION_MESSAGES.preregistrationNotFound));
  if (pre.registration) {
    throw await redirectWithToast(
      `/admin/registration/${pre.registration.slug}`,
      oops(REGISTRATION_MESSAGES.alreadyPurchased),
    );
  }
  if (!pre.is_verified) {
    throw await redirectWithToast(`/admin/preregistration/${pre.slug}/verify`, oops(REGISTRATION_MESSAGES.notVerified));
  }
  return {
    pre: {
      slug: pre.slug,
      name: pre.name,
      phone: pre.phone,
      bike_model: pre.bike_model?.title ?? "",
    },
    defaultValue: {
      name: pre.name,
      address: pre.address,
      email: pre.email ?? "",
      citizenship_no: pre.citizenship_no,
      bike_model_id: pre.bike_model_id ? String(pre.bike_model_id) : "",
      payment_mode: "CASH",
      send_sms: "on",
    },
    branchId: user.scope.branchId,
    bikeModels: listBikeModels().map((m) => ({ id: m.id, title: m.title })),
    purchaseDate: kathmanduDate(),
    formToken: newFormToken(),
  };
}

/**
 * Saves the purchase and goes to the coupon draw (the customer's code first).
 * Refused: the form again with the errors under their fields (a pre-registration
 * out of reach goes back to /admin, as the spec does on a load failure).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const form = await readForm(request);
  const parsed = await parseValue({ kind: "form", form }, registrationSchema);
  if (!parsed.ok) return replyFailure(form, parsed);
  const outcome = await createRegistration(user, params.slug!, parsed.value);
  if (!outcome.ok) {
    if (outcome.code === "not_found") throw await redirectWithToast("/admin", oops(outcome.message));
    return replyFailure(form, outcome);
  }
  const sent =
    outcome.code && !outcome.code.ok
      ? " The last code is still valid."
      : " A confirmation code was sent to the customer.";
  return redirectWithToast(
    `/admin/registration/${outcome.registration.slug}/draw`,
    success(outcome.created ? `Registration saved.${sent}` : "Registration saved."),
  );
}

export default function CreateRegistration() {
  const { pre, defaultValue, branchId, bikeModels, purchaseDate, formToken } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useRegistrationForm({
    id: "registration-create",
    schema: registrationSchema,
    lastResult: actionData?.result,
    defaultValue,
  });
  return (
    <>
      <h1>Register Purchase</h1>
      <Details
        title="Pre-Registration"
        rows={[
          ["Name", pre.name],
          ["Phone", pre.phone],
          ["Model", pre.bike_model],
          [
            "Pre-registration",
            <Link key="l" to={`/admin/preregistration/${pre.slug}`}>
              View
            </Link>,
          ],
        ]}
      />
      {branchId === null ? (
        <p className="form-error" role="alert">
          {REGISTRATION_MESSAGES.noBranch}
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="card counter-form">
        {form.errors?.length ? (
          <p className="form-error" role="alert" id={form.errorId}>
            {form.errors[0]}
          </p>
        ) : null}
        <input type="hidden" name="form_token" value={formToken} />
        <RegistrationFields
          fields={fields}
          branchId={branchId}
          phone={pre.phone}
          purchaseDate={purchaseDate}
          bikeModels={bikeModels}
        />
        <SaveCancel cancelTo={`/admin/preregistration/${pre.slug}`} disabled={branchId === null} />
      </Form>
    </>
  );
}
