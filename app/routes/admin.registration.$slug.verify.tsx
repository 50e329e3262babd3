import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { Field } from "~/components/Field";
import { counterLinks } from "~/components/counter/styles";
import { confirmRegistration, findRegistration, resetRegistrationCode } from "~/models/registration.server";
import { REGISTRATION_MESSAGES, registrationCodeSchema } from "~/schemas/registration";
import { requireRouteAccess, type RouteAccess } from "~/utils/auth.server";
import { maskPhone } from "~/utils/phone";
import { redirectWithToast, success } from "~/utils/toast.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "read-registration" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Confirm Purchase" }];
export const links = counterLinks;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const reg = findRegistration(user.scope, params.slug!);
  if (!reg) throw new Response("Not Found", { status: 404 });
  if (reg.status !== "pending") throw redirect(`/admin/registration/${reg.slug}/draw`);
  return { slug: reg.slug, name: reg.name, phone: maskPhone(reg.phone) };
}

type ActionData = { error?: string; notice?: string; incorrect?: boolean; at?: number };

export async function action({ request, params }: ActionFunctionArgs): Promise<ActionData | Response> {
  const user = await requireRouteAccess(request, handle);
  const form = await request.formData();
  const slug = params.slug!;
  if (form.get("intent") === "resend") {
    const reset = await resetRegistrationCode(user.scope, slug);
    if (!reset.ok) throw new Response("Not Found", { status: 404 });
    return {
      notice: reset.sent
        ? "A new code has been sent to the customer."
        : `The customer's last code is still valid. A new code can be sent in ${reset.retryAfterSeconds} seconds.`,
    };
  }
  const submission = parseWithZod(form, { schema: registrationCodeSchema });
  if (submission.status !== "success") {
    return { error: submission.error?.code?.[0] ?? REGISTRATION_MESSAGES.enterCode };
  }
  const outcome = confirmRegistration(user.scope, slug, submission.value.code);
  if (outcome.ok) {
    return redirectWithToast(`/admin/registration/${slug}/draw`, success("Purchase confirmed."));
  }
  if (outcome.status === 404) throw new Response("Not Found", { status: 404 });
  if (outcome.status !== 422) return { error: outcome.message };
  // A wrong code: the reset call (a fresh code when the code rules allow) and the spec's message.
  const reset = await resetRegistrationCode(user.scope, slug);
  const sent = reset.ok && reset.sent;
  return {
    error: REGISTRATION_MESSAGES.incorrectCode,
    incorrect: true,
    at: Date.now(),
    notice: sent ? "A new code has been sent to the customer." : undefined,
  };
}

export default function VerifyRegistration() {
  const { slug, name, phone } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>() as ActionData | undefined;
  useEffect(() => {
    if (data?.incorrect) document.getElementById("f-code")?.focus();
  }, [data]);
  return (
    <>
      <h1>Confirm Purchase</h1>
      <div className="card narrow">
        <p>
          A confirmation code was sent by SMS to <strong>{name}</strong> ({phone}).
        </p>
        <Form method="post" replace>
          <Field
            key={data?.at ?? 0}
            label={REGISTRATION_MESSAGES.enterCode}
            id="f-code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            required
            errors={data?.error ? [data.error] : undefined}
          />
          {data?.notice ? (
            <p className="notice" role="status">
              {data.notice}
            </p>
          ) : null}
          <div className="actions">
            <button type="submit" name="intent" value="verify" className="primary">
              Confirm
            </button>
            <button type="submit" name="intent" value="resend" formNoValidate>
              Resend code
            </button>
            <Link to={`/admin/registration/${slug}`} className="button">
              Go Back
            </Link>
          </div>
        </Form>
      </div>
    </>
  );
}
