import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { Field } from "~/components/Field";
import { counterLinks } from "~/components/counter/styles";
import { confirmRegistration, resetRegistrationCode } from "~/models/registration.server";
import { findRegistration } from "~/models/registration-list.server";
import { REGISTRATION_MESSAGES, registrationCodeSchema } from "~/schemas/registration";
import { requireIntent, requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseValue } from "~/http/body.server";
import { notFound, pageFailure, replyFailure } from "~/http/http.server";
import { maskPhone } from "~/utils/phone";
import { redirectWithToast, success } from "~/http/toast.server";
import { CodeCard } from "~/components/counter/CodeCard";

/** The permission this route needs, checked by every loader and action of the module. */
/** The permission this route needs; its form confirms the code (the default) or sends a new one. */
export const handle = {
  permission: "read-registration",
  intents: { verify: null, resend: null },
} as const satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Confirm Purchase" }];
export const links = counterLinks;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const reg = findRegistration(user.scope, params.slug!);
  if (!reg) throw notFound();
  if (reg.status !== "pending") throw redirect(`/admin/registration/${reg.slug}/draw`);
  return { slug: reg.slug, name: reg.name, phone: maskPhone(reg.phone) };
}

const SENT = "A new code has been sent to the customer.";

/**
 * intent=resend: a new code when the code rules allow. Otherwise the code:
 * right → the coupon draw; wrong → the spec's "Incorrect Code. Please Try
 * again" under the field (emptied) and the reset call (a fresh code when allowed).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const { intent, form, staff: user } = await requireIntent(request, handle, { fallback: "verify" });
  const slug = params.slug!;
  if (intent === "resend") {
    const reset = await resetRegistrationCode(user, slug);
    if (!reset.ok) throw pageFailure(reset);
    const notice = reset.sent
      ? SENT
      : `The customer's last code is still valid. A new code can be sent in ${reset.retryAfterSeconds} seconds.`;
    return { result: null, notice, attempt: null };
  }
  const parsed = await parseValue({ kind: "form", form }, registrationCodeSchema);
  if (!parsed.ok) return replyFailure(form, parsed);
  const outcome = confirmRegistration(user, slug, parsed.value.code);
  if (outcome.ok) return redirectWithToast(`/admin/registration/${slug}/draw`, success("Purchase confirmed."));
  if (outcome.code === "not_found") throw pageFailure(outcome);
  if (outcome.code !== "invalid") return replyFailure(form, outcome);
  // A wrong code: the reset call, and the form again without the code.
  const reset = await resetRegistrationCode(user, slug);
  const reply = replyFailure(null, outcome);
  const notice = reset.ok && reset.sent ? SENT : null;
  return data({ ...reply.data, notice, attempt: crypto.randomUUID() }, reply.init ?? undefined);
}

export default function VerifyRegistration() {
  const { slug, name, phone } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "registration-verify",
    lastResult: actionData?.result,
    // Resend needs no code: only Confirm is checked in the browser.
    onValidate: ({ formData }) =>
      parseWithZod(formData, { schema: formData.get("intent") === "resend" ? z.object({}) : registrationCodeSchema }),
    shouldValidate: "onSubmit",
  });
  const notice = actionData && "notice" in actionData ? actionData.notice : null;
  const attempt = actionData && "attempt" in actionData ? actionData.attempt : null;
  return (
    <CodeCard
      title="Confirm Purchase"
      what="confirmation"
      name={name}
      phone={phone}
      formProps={getFormProps(form)}
      field={
        <Field
          {...getInputProps(fields.code, { type: "text" })}
          key={`${fields.code.key ?? ""}-${attempt ?? ""}`}
          label={REGISTRATION_MESSAGES.enterCode}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          required
          autoFocus={Boolean(attempt)}
          errors={fields.code.errors}
        />
      }
      notice={notice}
      submitLabel="Confirm"
      backTo={`/admin/registration/${slug}`}
    />
  );
}
