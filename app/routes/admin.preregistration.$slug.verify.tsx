import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { Field } from "~/components/Field";
import { counterLinks } from "~/components/counter/styles";
import { findPreregistration } from "~/models/preregistration-admin.server";
import { resendVerificationCode, verifyPreregistration } from "~/models/preregistration.server";
import { requireRouteAccess, type RouteAccess } from "~/utils/auth.server";
import { maskPhone } from "~/utils/phone";
import { oops, redirectWithToast, success } from "~/utils/toast.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "read-registration" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Verify Pre-Registration" }];
export const links = counterLinks;

const ENTER_CODE = "Enter the registration code the customer received";
const MISMATCH = "the code you have selected is incorrect. Please try again or resend the code";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const pre = findPreregistration(user.scope, params.slug!);
  if (!pre) throw await redirectWithToast("/admin", oops("Pre-registration not found."));
  if (pre.is_verified) throw redirect(`/admin/preregistration/${pre.slug}/draw`);
  return { slug: pre.slug, name: pre.name, phone: maskPhone(pre.phone) };
}

type ActionData = { error?: string; notice?: string; mismatch?: boolean; at?: number };

export async function action({ request, params }: ActionFunctionArgs): Promise<ActionData | Response> {
  const user = await requireRouteAccess(request, handle);
  // Access is decided here (a branch may serve a public pre-registration); the model then works on the slug.
  const pre = findPreregistration(user.scope, params.slug!);
  if (!pre) throw await redirectWithToast("/admin", oops("Pre-registration not found."));
  const form = await request.formData();
  if (form.get("intent") === "resend") {
    const res = await resendVerificationCode(pre.slug);
    return res.ok ? { notice: res.message } : { error: res.message };
  }
  const code = String(form.get("code") ?? "").trim();
  if (!code) return { error: ENTER_CODE };
  const res = await verifyPreregistration(pre.slug, code);
  if (res.ok) return redirectWithToast(`/admin/preregistration/${pre.slug}/draw`, success("Phone number verified."));
  if (res.reason === "invalid" || res.reason === "expired" || res.reason === "exhausted" || res.reason === "required") {
    // The code is compared on the server; a mismatch sends a fresh code (spec 000 §4).
    const resent = await resendVerificationCode(pre.slug);
    return {
      error: MISMATCH,
      mismatch: true,
      at: Date.now(),
      notice: resent.ok ? "A new code has been sent to the customer." : resent.message,
    };
  }
  return { error: res.message };
}

export default function VerifyPreregistration() {
  const { slug, name, phone } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>() as ActionData | undefined;
  useEffect(() => {
    if (data?.mismatch) document.getElementById("f-code")?.focus();
  }, [data]);
  return (
    <>
      <h1>Verify Pre-Registration</h1>
      <div className={`card narrow${data?.mismatch ? " mismatch" : ""}`}>
        <p>
          A verification code was sent by SMS to <strong>{name}</strong> ({phone}).
        </p>
        <Form method="post" replace>
          <Field
            key={data?.at ?? 0}
            label={ENTER_CODE}
            id="f-code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            errors={data?.error ? [data.error] : undefined}
          />
          {data?.notice ? (
            <p className="notice" role="status">
              {data.notice}
            </p>
          ) : null}
          <div className="actions">
            <button type="submit" name="intent" value="verify" className="primary">
              Verify
            </button>
            <button type="submit" name="intent" value="resend">
              Resend code
            </button>
            {data?.mismatch ? (
              <Link to={`/admin/preregistration/${slug}/verify`} className="button" replace>
                Retry
              </Link>
            ) : null}
            <Link to={`/admin/preregistration/${slug}/edit`} className="button">
              Go Back
            </Link>
          </div>
        </Form>
      </div>
    </>
  );
}
