import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { BODY_LIMITS, formRequest, readForm } from "~/utils/body.server";
import { useHydrated } from "~/components/useHydrated";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { publicChrome } from "~/components/public/chrome.server";
import { useState } from "react";
import { failureStatus } from "~/models/failure";
import { authenticator, createUserSession, getOptionalUser, LoginError } from "~/utils/auth.server";
import { safeRedirect } from "~/utils/safe-redirect";

export const meta: MetaFunction = () => [{ title: "Login" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  if (user) throw redirect(safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/admin"));
  // The brand's logo from settings (the same one the public site shows), or a text mark without one.
  return { logoUrl: publicChrome(request).logoUrl };
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
      const { failure } = error;
      const headers = failure.retryAfterSeconds ? { "Retry-After": String(failure.retryAfterSeconds) } : undefined;
      return Response.json(
        { error: failure.message, email: String(form.get("email") ?? "") },
        { status: failureStatus(failure), headers },
      );
    }
    throw error;
  }
}

export default function Login() {
  const actionData = useActionData<{ error: string; email: string }>();
  const { logoUrl } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const loading = navigation.state !== "idle" && navigation.formAction === "/login";
  const hydrated = useHydrated();
  const [show, setShow] = useState(false);
  return (
    <main className="auth-page">
      <Form method="post" className="card auth-card" replace>
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
        {actionData?.error ? (
          <p className="form-error" role="alert">
            {actionData.error}
          </p>
        ) : null}
        <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? "/admin"} />
        <div className="field">
          <label htmlFor="email">Email</label>
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="username"
            required
            defaultValue={actionData?.email}
          />
        </div>
        <div className="field">
          <label htmlFor="password">Password</label>
          <div className="password-row">
            <input
              id="password"
              name="password"
              type={show ? "text" : "password"}
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
