import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Details } from "~/components/counter/Details";
import { useCounterForm } from "~/components/counter/form";
import { newFormToken, replyWithErrors } from "~/components/counter/reply.server";
import { RegistrationFields } from "~/components/counter/RegistrationFields";
import { counterLinks } from "~/components/counter/styles";
import { listBikeModels } from "~/models/bike-model.server";
import { findPreregistration } from "~/models/preregistration-admin.server";
import { createRegistration } from "~/models/registration.server";
import { REGISTRATION_MESSAGES, registrationSchema } from "~/schemas/registration";
import { requireRouteAccess, type RouteAccess } from "~/utils/auth.server";
import { kathmanduDate } from "~/utils/time";
import { oops, redirectWithToast, success } from "~/utils/toast.server";

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
      address: pre.address,
      email: pre.email,
      phone: pre.phone,
      citizenship_no: pre.citizenship_no,
      bike_model_id: pre.bike_model_id,
      bike_model: pre.bike_model?.title ?? "",
      prize: pre.prize,
    },
    branchId: user.scope.branchId,
    bikeModels: listBikeModels().map((m) => ({ id: m.id, title: m.title })),
    purchaseDate: kathmanduDate(),
    formToken: newFormToken(24),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const form = await request.formData();
  const submission = parseWithZod(form, { schema: registrationSchema });
  if (submission.status !== "success") return { result: submission.reply() };
  const outcome = await createRegistration({ id: user.id, scope: user.scope }, params.slug!, submission.value);
  if (!outcome.ok) {
    if (outcome.status === 404) throw await redirectWithToast("/admin", oops(outcome.message));
    return { result: replyWithErrors(submission, outcome.errors) };
  }
  const slug = outcome.registration.slug;
  const sent =
    outcome.code && !outcome.code.ok
      ? " The last code is still valid."
      : " A confirmation code was sent to the customer.";
  return redirectWithToast(
    `/admin/registration/${slug}/draw`,
    success(outcome.created ? `Registration saved.${sent}` : "Registration saved."),
  );
}

export default function CreateRegistration() {
  const { pre, branchId, bikeModels, purchaseDate, formToken } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const f = useCounterForm({
    id: "registration-create",
    schema: registrationSchema,
    lastResult: actionData?.result,
    defaultValue: {
      name: pre.name,
      address: pre.address,
      email: pre.email ?? "",
      citizenship_no: pre.citizenship_no,
      bike_model_id: pre.bike_model_id ? String(pre.bike_model_id) : "",
      payment_mode: "CASH",
    },
  });
  const formErrors = f.form.errors;
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
      <Form
        method="post"
        id={f.form.id}
        onSubmit={f.form.onSubmit}
        noValidate={f.form.noValidate}
        className="card counter-form"
      >
        {formErrors?.length ? (
          <p className="form-error" role="alert">
            {formErrors[0]}
          </p>
        ) : null}
        <input type="hidden" name="form_token" value={formToken} />
        <RegistrationFields
          f={f}
          branchId={branchId}
          phone={pre.phone}
          purchaseDate={purchaseDate}
          bikeModels={bikeModels}
        />
        <div className="actions">
          <Link to={`/admin/preregistration/${pre.slug}`} className="button">
            Cancel
          </Link>
          <button type="submit" className="primary" disabled={busy || branchId === null}>
            {busy ? "Saving…" : "Save"}
          </button>
        </div>
      </Form>
    </>
  );
}
