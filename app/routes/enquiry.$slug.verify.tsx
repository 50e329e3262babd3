import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useForm, type SubmissionResult } from "@conform-to/react";
import { pageLanguage } from "~/http/language.server";
import { publicChrome } from "~/models/public-chrome.server";
import { publicLinks } from "~/components/public/links";
import { CodeSmsNotice } from "~/components/public/CodeSmsNotice";
import { EntryDetails } from "~/components/public/EntryDetails";
import { FormBanner } from "~/components/public/PreregistrationForm";
import { PendingPurchaseHelp } from "~/components/public/PendingPurchaseHelp";
import { OtpButtons, OtpField } from "~/components/public/OtpField";
import { ModalPage } from "~/components/public/PublicShell";
import { VERIFY_SCRIPT } from "~/components/public/scripts";
import { findPublicEntry, ownerDetails, verificationState } from "~/models/preregistration-read.server";
import { resendVerificationCode, verifyPreregistration } from "~/models/preregistration-verify.server";
import { type Visitor } from "~/models/preregistration.server";
import { latestCode } from "~/models/otp.server";
import { verifySchema } from "~/schemas/preregistration";
import { clientAddress } from "~/http/auth.server";
import { parseValue, readForm } from "~/http/body.server";
import { notFound, pageFailure, readIntent, replyFailure } from "~/http/http.server";
import { t, tm, tn } from "~/utils/i18n";
import { ownsEntry, redirectOwning } from "~/http/owned-entries.server";
import { maskPhone } from "~/utils/phone";
import { withReveal } from "~/http/reveal.server";
import { secondsUntil } from "~/utils/time";

/** Served without scripts; its form checks the code (the default) or sends a new one. */
export const handle = { scripts: false, intents: { verify: null, resend: null } } as const;
export const links = publicLinks;
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: t(data?.chrome.lang ?? "en", "verify.title") },
];

/**
 * The "Verify OTP" dialog; an already verified entry goes to its draw. Anyone
 * with the address sees the masked phone; the entry's details only the browser
 * that created it (or proved it with a code).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const entry = findPublicEntry(params.slug ?? "");
  if (!entry) throw notFound();
  if (entry.is_verified) throw redirect(`/enquiry/${entry.slug}/draw`);
  const { resendAt, codeSms } = verificationState(entry);
  return data(
    {
      chrome: publicChrome(pageLanguage(request)),
      slug: entry.slug,
      phone: maskPhone(entry.phone),
      resendAt,
      resendIn: secondsUntil(resendAt),
      // The code's SMS failed (the visitor is told to resend) or is being retried (decision 8).
      codeSms,
      details: (await ownsEntry(request, entry.slug)) ? ownerDetails(entry) : null,
      // The number was just changed within a minute of the last code: the code comes with Resend code.
      changed: new URL(request.url).searchParams.get("changed") === "1",
    },
    { headers: { "Cache-Control": "private, no-cache" } },
  );
}

type Answer = { result?: SubmissionResult<string[]>; notice?: string; triesLeft?: number };

/**
 * intent=resend sends a fresh code; otherwise the code is checked (a right one
 * verifies and draws, and this browser then owns the entry).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const slug = params.slug ?? "";
  const form = await readForm(request);
  const visitor: Visitor = { channel: "public", address: clientAddress(request) };
  if (readIntent(form, handle.intents, "verify") === "resend") {
    const sent = resendVerificationCode(visitor, slug);
    if (sent.ok) return data<Answer>({ notice: sent.message });
    if (sent.code === "not_found") throw pageFailure(sent);
    if (sent.code === "conflict") return redirect(`/enquiry/${slug}/draw`);
    return replyFailure(null, sent);
  }
  const parsed = await parseValue({ kind: "form", form }, verifySchema);
  const result = await verifyPreregistration(visitor, slug, parsed.ok ? parsed.value.code : "");
  if (result.ok) {
    // Only a right code proves the entry (one verified before answers ok whatever is sent).
    return result.alreadyVerified
      ? redirect(`/enquiry/${slug}/draw`)
      : withReveal(await redirectOwning(request, slug, `/enquiry/${slug}/draw`), slug);
  }
  if (result.code === "not_found") throw pageFailure(result);
  const reply = replyFailure(null, result);
  // After a wrong code: how many tries this code has left (the sixth try is refused whatever is sent).
  const entry = findPublicEntry(slug);
  const code = entry && result.code === "invalid" ? latestCode("preregistration", entry.id) : null;
  if (code?.state !== "live") return reply;
  return data<Answer>({ ...(reply.data as Answer), triesLeft: code.attemptsLeft }, reply.init ?? undefined);
}

export default function VerifyOtp() {
  const { chrome, slug, phone, resendAt, resendIn, codeSms, details, changed } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as Answer | undefined;
  const { lang } = chrome;
  // Checked by the server (the page ships no bundle); conform carries the errors back.
  const [form, fields] = useForm<{ code: string }>({ id: "otp", lastResult: answer?.result });
  const codeError = fields.code.errors?.[0] ? tm(lang, fields.code.errors[0]) : "";
  return (
    <ModalPage chrome={chrome} title={t(lang, "verify.title")} scripts={[VERIFY_SCRIPT]}>
      <CodeSmsNotice lang={lang} phone={phone} codeSms={codeSms} changed={changed && !answer} />
      {details ? (
        <p className="change-number">
          <a href={`/enquiry?${new URLSearchParams({ change: slug })}`}>{t(lang, "verify.changeNumber")}</a>
        </p>
      ) : null}
      {answer?.notice ? (
        <p className="banner banner-ok" role="status">
          {tm(lang, answer.notice)}
        </p>
      ) : null}
      <FormBanner messages={form.errors?.map((m) => tm(lang, m))} />
      <form method="post" action={`/enquiry/${slug}/verify`} data-verify="" id={form.id}>
        <OtpField
          lang={lang}
          field={fields.code}
          error={codeError}
          describedBy={answer?.triesLeft ? "e-tries" : undefined}
        >
          <PendingPurchaseHelp lang={lang} error={fields.code.errors?.[0]} />
          {codeError && answer?.triesLeft ? (
            <p className="tries" id="e-tries">
              {tn(lang, "verify.triesLeft", answer.triesLeft)}
            </p>
          ) : null}
        </OtpField>
        <OtpButtons
          lang={lang}
          submitLabel={t(lang, "verify.submit")}
          resendAt={resendAt}
          resendIn={resendIn}
          hideWait={Boolean(form.errors?.length)}
        />
      </form>
      <EntryDetails lang={lang} details={details} />
    </ModalPage>
  );
}
