import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FieldError } from "~/components/Field";
import { requestPasswordReset, resetPassword } from "~/models/password-reset.server";
import { resetPasswordSchema, resetRequestSchema } from "~/schemas/auth";
import { fail } from "~/utils/failure";
import { clientAddress } from "~/http/auth.server";
import { readForm } from "~/http/body.server";
import { readIntent } from "~/http/http.server";
import { hit } from "~/utils/rate-limit.server";
import { redirectWithToast, success } from "~/http/toast.server";
import { redirect } from "@remix-run/node";

/** Its form asks for a code (send) or sets the new password with it (reset, the default). */
export const handle = { intents: { send: null, reset: null } } as const;

export const meta: MetaFunction = () => [{ title: "Reset password" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return Response.json({
    step: url.searchParams.get("step") === "code" ? "code" : "email",
    email: url.searchParams.get("email") ?? "",
  });
}

const HIDE = ["password", "password_confirmation"];

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const intent = readIntent(form, handle.intents, "reset");
  const address = clientAddress(request);
  const byAddress = hit("reset-ip", address);
  const limited = byAddress.ok ? null : fail.rateLimited(byAddress.retryAfterSeconds);
  const headers = limited ? { "Retry-After": String(limited.retryAfterSeconds) } : undefined;
  if (intent === "send") {
    const submission = parseWithZod(form, { schema: resetRequestSchema });
    if (submission.status !== "success") return Response.json(submission.reply(), { status: 422 });
    if (limited) return Response.json(submission.reply({ formErrors: [limited.message] }), { status: 429, headers });
    const byAccount = hit("reset-account", submission.value.email);
    await requestPasswordReset(submission.value.email, byAccount.ok);
    return redirect(`/reset-password?step=code&email=${encodeURIComponent(submission.value.email)}`);
  }
  const submission = parseWithZod(form, { schema: resetPasswordSchema });
  if (submission.status !== "success") return Response.json(submission.reply({ hideFields: HIDE }), { status: 422 });
  if (limited) {
    return Response.json(submission.reply({ formErrors: [limited.message], hideFields: HIDE }), {
      status: 429,
      headers,
    });
  }
  const { email, code, password } = submission.value;
  const result = await resetPassword(email, code, password, address);
  if (!result.ok) {
    return Response.json(submission.reply({ fieldErrors: { [result.field]: [result.message] }, hideFields: HIDE }), {
      status: 422,
    });
  }
  return redirectWithToast("/login", success("Your password has been changed. Please sign in."));
}

export default function ResetPassword() {
  const { step, email } = useLoaderData<typeof loader>() as { step: "email" | "code"; email: string };
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm<{ email: string; code: string; password: string; password_confirmation: string }>({
    lastResult: lastResult as never,
    defaultValue: { email },
    shouldRevalidate: "onBlur",
  });
  return (
    <main className="auth-page">
      <Form method="post" className="card auth-card" {...getFormProps(form)}>
        <h1>Reset password</h1>
        <FieldError errors={form.errors} />
        {step === "email" ? (
          <>
            <p>Enter your e-mail. If it belongs to an account, a reset code is sent by SMS to the account's phone.</p>
            <div className="field">
              <label htmlFor={fields.email.id}>Email</label>
              <input {...getInputProps(fields.email, { type: "email" })} key={fields.email.key} />
              <FieldError errors={fields.email.errors} />
            </div>
            <button type="submit" name="intent" value="send" className="primary">
              Send code
            </button>
          </>
        ) : (
          <>
            <p>If {email} belongs to an account, a 6-digit code was sent to its phone. It is valid for 10 minutes.</p>
            <input {...getInputProps(fields.email, { type: "hidden" })} key={fields.email.key} />
            <div className="field">
              <label htmlFor={fields.code.id}>Code</label>
              <input
                {...getInputProps(fields.code, { type: "text" })}
                inputMode="numeric"
                autoComplete="one-time-code"
                key={fields.code.key}
              />
              <FieldError errors={fields.code.errors} />
            </div>
            <div className="field">
              <label htmlFor={fields.password.id}>New password</label>
              <input
                {...getInputProps(fields.password, { type: "password" })}
                autoComplete="new-password"
                key={fields.password.key}
              />
              <FieldError errors={fields.password.errors} />
            </div>
            <div className="field">
              <label htmlFor={fields.password_confirmation.id}>Confirm password</label>
              <input
                {...getInputProps(fields.password_confirmation, { type: "password" })}
                autoComplete="new-password"
                key={fields.password_confirmation.key}
              />
              <FieldError errors={fields.password_confirmation.errors} />
            </div>
            <button type="submit" name="intent" value="reset" className="primary">
              Set new password
            </button>
          </>
        )}
        <p>
          <Link to="/login">Back to login</Link>
        </p>
      </Form>
    </main>
  );
}
