import { markRevealStart } from "~/components/DrawReveal";
import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Field } from "~/components/Field";
import { useCounterFields } from "~/components/counter/form";
import { counterLinks } from "~/components/counter/styles";
import { findPreregistration } from "~/models/preregistration-admin.server";
import { resendVerificationCode, verifyPreregistration } from "~/models/preregistration-verify.server";
import { type Counter } from "~/models/preregistration.server";
import { COUNTER_VERIFY_MESSAGES as CV, verifySchema } from "~/schemas/preregistration";
import { requireIntent, requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseValue } from "~/http/body.server";
import { replyFailure, preregistrationNotFound } from "~/http/http.server";
import { maskPhone } from "~/utils/phone";
import { redirectWithToast, success } from "~/http/toast.server";
import { CodeCard } from "~/components/counter/CodeCard";

/** The permission this route needs, checked by every loader and action of the module. */
/** The permission this route needs; its form verifies the code (the default) or sends a new one. */
export const handle = {
  permission: "read-registration",
  intents: { verify: null, resend: null },
} as const satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Verify Pre-Registration" }];
export const links = counterLinks;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const pre = findPreregistration(user.scope, params.slug!);
  if (!pre) throw await preregistrationNotFound();
  if (pre.is_verified) throw redirect(`/admin/preregistration/${pre.slug}/draw`);
  return { slug: pre.slug, name: pre.name, phone: maskPhone(pre.phone) };
}

type Answer = { result?: SubmissionResult<string[]>; notice?: string };

/**
 * intent=resend: a fresh code (within the code rules). Otherwise the code the
 * customer received, compared on the server (one model function with the
 * API): a right one verifies and draws; a wrong one answers the spec's
 * message and sends a fresh code. The wrong code is not echoed, so Retry (a
 * reset) leaves the field empty with or without JavaScript.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const { intent, form, staff: user } = await requireIntent(request, handle, { fallback: "verify" });
  const slug = params.slug!;
  const counter: Counter = { channel: "counter", actor: user };
  if (intent === "resend") {
    const sent = resendVerificationCode(counter, slug);
    if (sent.ok) return { notice: CV.resent } satisfies Answer;
    if (sent.code === "not_found") throw await preregistrationNotFound(sent);
    if (sent.code === "conflict") return redirect(`/admin/preregistration/${slug}/draw`);
    return replyFailure(null, sent);
  }
  const parsed = await parseValue({ kind: "form", form }, verifySchema);
  const res = parsed.ok ? await verifyPreregistration(counter, slug, parsed.value.code) : parsed;
  if (res.ok) return redirectWithToast(`/admin/preregistration/${slug}/draw`, success(CV.verified));
  if (res.code === "not_found") throw await preregistrationNotFound(res);
  return replyFailure(null, res);
}

export default function VerifyPreregistration() {
  const { slug, name, phone } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as Answer | undefined;
  const [form, fields] = useCounterFields({
    id: "prereg-verify",
    schema: verifySchema,
    lastResult: answer?.result,
  });
  const codeErrors = fields.code.errors;
  const mismatch = codeErrors?.[0] === CV.mismatch;
  const resendRefused = (answer?.result?.error?.resend as string[] | undefined)?.[0];
  const notice = answer?.notice ?? (mismatch ? (resendRefused ?? CV.resent) : undefined);
  return (
    <CodeCard
      title="Verify Pre-Registration"
      what="verification"
      name={name}
      phone={phone}
      formProps={{
        ...getFormProps(form),
        // The draw waits for its beacon round inside the reveal's 5 s, counted from this press.
        onSubmit: (e: React.FormEvent<HTMLFormElement>) => {
          markRevealStart();
          getFormProps(form).onSubmit?.(e);
        },
      }}
      formErrors={form.errors}
      field={
        <Field
          label={CV.enterCode}
          {...getInputProps(fields.code, { type: "text" })}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          errors={codeErrors}
        />
      }
      notice={notice}
      submitLabel="Verify"
      retry={mismatch}
      backTo={`/admin/preregistration/${slug}/edit`}
    />
  );
}
