import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { publicChrome } from "~/components/public/chrome.server";
import { publicLinks } from "~/components/public/links";
import { FormBanner } from "~/components/public/PreregistrationForm";
import { ModalPage } from "~/components/public/PublicShell";
import { VERIFY_SCRIPT } from "~/components/public/scripts";
import {
  findPublicEntry,
  resendVerificationCode,
  verificationState,
  verifyPreregistration,
} from "~/models/preregistration.server";
import { OTP_MESSAGES } from "~/schemas/preregistration";
import { t, tm } from "~/utils/i18n";
import { maskPhone } from "~/utils/phone";

export const handle = { scripts: false };
export const links = publicLinks;
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: t(data?.chrome.lang ?? "en", "verify.title") },
];

const notFound = () => new Response("Not Found", { status: 404 });

/** The "Verify OTP" dialog; an already verified entry goes to its draw. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const entry = findPublicEntry(params.slug ?? "");
  if (!entry) throw notFound();
  if (entry.is_verified) throw redirect(`/enquiry/${entry.slug}/draw`);
  return data(
    {
      chrome: publicChrome(request),
      slug: entry.slug,
      phone: maskPhone(entry.phone),
      resendAt: verificationState(entry).resendAt,
    },
    { headers: { "Cache-Control": "private, no-cache" } },
  );
}

type Result = { errors: Record<string, string[]>; notice?: string };

export async function action({ request, params, context }: ActionFunctionArgs) {
  const slug = params.slug ?? "";
  const form = await request.formData();
  const opts = { clientAddress: context.clientAddress };
  if (form.get("intent") === "resend") {
    const sent = await resendVerificationCode(slug, undefined, opts);
    if (sent.ok) return data<Result>({ errors: {}, notice: sent.message });
    if (sent.reason === "not_found") throw notFound();
    if (sent.reason === "already_verified") return redirect(`/enquiry/${slug}/draw`);
    return data<Result>({ errors: { form: [sent.message] } }, { status: 429 });
  }
  const result = await verifyPreregistration(slug, form.get("code"), undefined, opts);
  if (result.ok) return redirect(`/enquiry/${slug}/draw`);
  if (result.reason === "not_found") throw notFound();
  return data<Result>({ errors: { code: [result.message] } }, { status: result.reason === "rate_limited" ? 429 : 400 });
}

export default function VerifyOtp() {
  const { chrome, slug, phone, resendAt } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { lang } = chrome;
  const codeError = result?.errors.code?.[0] ? tm(lang, result.errors.code[0]) : "";
  return (
    <ModalPage chrome={chrome} title={t(lang, "verify.title")} scripts={[VERIFY_SCRIPT]}>
      <p>{t(lang, "verify.sent", { phone })}</p>
      {result?.notice ? (
        <p className="banner banner-ok" role="status">
          {tm(lang, result.notice)}
        </p>
      ) : null}
      <FormBanner messages={result?.errors.form?.map((m) => tm(lang, m))} />
      <form method="post" action={`/enquiry/${slug}/verify`} data-verify="">
        <div className={`field${codeError ? " invalid" : ""}`}>
          <label htmlFor="f-code">{t(lang, "verify.code")}</label>
          <input
            id="f-code"
            name="code"
            className="verify-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            aria-invalid={codeError ? true : undefined}
            aria-describedby="e-code"
          />
          <p
            className="field-error"
            id="e-code"
            role="alert"
            data-code-error=""
            data-required={tm(lang, OTP_MESSAGES.required)}
            hidden={!codeError}
          >
            {codeError}
          </p>
        </div>
        <div className="actions">
          <button type="submit" name="intent" value="verify" className="primary">
            {t(lang, "verify.submit")}
          </button>
          <button type="submit" name="intent" value="resend" data-resend-at={resendAt}>
            {t(lang, "verify.resend")}
          </button>
        </div>
        <p className="muted" data-wait="" data-template={t(lang, "verify.resendWait")} hidden />
      </form>
    </ModalPage>
  );
}
