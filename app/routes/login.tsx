import { getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { BODY_LIMITS, formRequest, readForm } from "~/http/body.server";
import { Field, FormError } from "~/components/Field";
import { useHydrated } from "~/components/useHydrated";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { pageLanguage } from "~/http/language.server";
import { publicChrome } from "~/models/public-chrome.server";
import { useState } from "react";
import { authenticator, createUserSession, getOptionalUser, LoginError } from "~/http/auth.server";
import { replyFailure } from "~/http/http.server";
import { safeRedirect } from "~/utils/safe-redirect";

export const meta: MetaFunction = () => [{ title: "Login" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  if (user) throw redirect(safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/admin"));
  // The brand's logo from settings (the same one the public site shows), or a text mark without one.
  return { logoUrl: publicChrome(pageLanguage(request)).logoUrl };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request, { limit: BODY_LIMITS.form });
  const to = safeRedirect(form.get("redirectTo"), "/admin");
  const remember = form.get("remember_me") === "on";
  try {
    const user = await authenticator.authenticate("form", formRequest(request, form));
    return createUserSession(request, user, remember, to);
  } catch (error) {
    if (error instanceof LoginError) {
      // The refusal above the form (its status, Retry-After when rate limited); only the email comes back.
      const sent = new FormData();
      sent.set("email", String(form.get("email") ?? ""));
      const reply = replyFailure(sent, error.failure);
      return Response.json(reply.data, reply.init ?? undefined);
    }
    throw error;
  }
}

export default function Login() {
  const actionData = useActionData<{ result: SubmissionResult<string[]> }>();
  const { logoUrl } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const loading = navigation.state !== "idle" && navigation.formAction === "/login";
  const hydrated = useHydrated();
  const [show, setShow] = useState(false);
  // Checked by the server; conform carries the refusal and the email sent back.
  const [form, fields] = useForm<{ email: string; password: string }>({
    id: "login",
    lastResult: actionData?.result,
  });
  return (
    <main className="auth-page">
      <Form method="post" className="card auth-card" replace id={form.id} onSubmit={form.onSubmit}>
        <div className="auth-brand">
          {logoUrl ? (
            <img src={logoUrl} alt="Thrill Scheme" height={48} />
          ) : (
            <span className="brand-mark" aria-hidden="true">
              T
            </span>
          )}
          <span className="brand-name">
            Thrill Scheme <small>Back Office</small>
          </span>
        </div>
        <h1>Sign in</h1>
        <FormError errors={form.errors} />
        <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? "/admin"} />
        <Field
          label="Email"
          {...getInputProps(fields.email, { type: "email" })}
          autoComplete="username"
          required
          errors={fields.email.errors}
        />
        <div className={`field${fields.password.errors?.length ? " invalid" : ""}`}>
          <label htmlFor={fields.password.id}>
            Password
            <span className="req" aria-hidden="true">
              {" "}
              *
            </span>
          </label>
          <div className="password-row">
            <input
              {...getInputProps(fields.password, { type: show ? "text" : "password", value: false })}
              autoComplete="current-password"
              required
            />
            {hydrated ? (
              <button type="button" className="link-button" onClick={() => setShow((s) => !s)} aria-pressed={show}>
                {show ? "Hide" : "Show"}
              </button>
            ) : null}
          </div>
        </div>
        <label className="check">
          <input type="checkbox" name="remember_me" /> Remember Me
        </label>
        <button type="submit" className="primary" disabled={loading}>
          {loading ? "Logging in…" : "Login"}
        </button>
        <p>
          <Link to="/reset-password">Forgot your password?</Link>
        </p>
      </Form>
    </main>
  );
}
