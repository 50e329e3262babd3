import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { secondsUntil } from "~/utils/time";
import { useActionData, useLoaderData } from "@remix-run/react";
import { getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Field } from "~/components/Field";
import { pageLanguage } from "~/http/language.server";
import { publicChrome } from "~/models/public-chrome.server";
import { publicLinks } from "~/components/public/links";
import { FormBanner } from "~/components/public/PreregistrationForm";
import { OtpButtons, OtpField } from "~/components/public/OtpField";
import { ModalPage } from "~/components/public/PublicShell";
import { VERIFY_SCRIPT } from "~/components/public/scripts";
import type { Failure } from "~/utils/failure";
import { checkContinueCode, sendContinueCode } from "~/models/preregistration-verify.server";
import { type Visitor } from "~/models/preregistration.server";
import { continueSendSchema, continueVerifySchema } from "~/schemas/preregistration";
import { clientAddress } from "~/http/auth.server";
import { parseValue, readForm } from "~/http/body.server";
import { readIntent, replyFailure } from "~/http/http.server";
import { t, tm } from "~/utils/i18n";
import { journeyHeader } from "~/http/journey.server";
import { redirectOwning } from "~/http/owned-entries.server";
import { maskPhone } from "~/utils/phone";
import { now } from "~/utils/time";

/** Served without scripts; its form sends a code (the default), sends it again, or checks it. */
export const handle = { scripts: false, intents: { send: null, resend: null, verify: null } } as const;
export const links = publicLinks;
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: t(data?.chrome.lang ?? "en", "continue.title") },
];

/**
 * "Continue your pre-registration": the owner of a phone that is already
 * pre-registered (the form offers "We can send a code to 98XXXXXX12 to
 * continue") gets a code sent to that phone, and the right code opens their
 * entry in this browser. Every answer is the same whether or not the phone is
 * registered; nothing of an entry shows before the right code.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return data({ chrome: publicChrome(pageLanguage(request)) }, { headers: { "Cache-Control": "private, no-cache" } });
}

type Result = SubmissionResult<string[]>;
type Answer =
  | { step: "phone"; result?: Result }
  | { step: "code"; phone: string; resendAt: string; resendIn: number; result?: Result };

const codeStep = (phone: string, resendAt: string, failure?: Failure, headers?: HeadersInit) => {
  const resendIn = secondsUntil(resendAt);
  if (!failure) return data<Answer>({ step: "code", phone, resendAt, resendIn }, { headers });
  const reply = replyFailure(null, failure);
  return data<Answer>(
    { step: "code", phone, resendAt, resendIn, result: reply.data.result },
    { ...reply.init, headers },
  );
};

/**
 * intent=send (or resend): a code to the phone's entry, if any; the code step
 * either way. intent=verify: the code; the right one records the entry as this
 * browser's and opens it (its draw, or its verify page while unverified).
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const visitor: Visitor = { channel: "public", address: clientAddress(request) };
  const intent = readIntent(form, handle.intents, "send");
  const body = { kind: "form" as const, form };

  if (intent === "verify") {
    const parsed = await parseValue(body, continueVerifySchema);
    if (!parsed.ok) {
      const reply = replyFailure(form, parsed);
      return data<Answer>({ step: "phone", result: reply.data.result }, reply.init ?? undefined);
    }
    const { phone, code } = parsed.value;
    const opened = checkContinueCode(visitor, phone, code);
    if (!opened.ok) return codeStep(phone, String(form.get("resend_at") ?? ""), opened);
    const entry = opened.preregistration;
    return redirectOwning(request, entry.slug, `/enquiry/${entry.slug}/${entry.is_verified ? "draw" : "verify"}`);
  }

  const parsed = await parseValue(body, continueSendSchema);
  if (!parsed.ok) {
    const reply = replyFailure(form, parsed);
    return data<Answer>({ step: "phone", result: reply.data.result }, reply.init ?? undefined);
  }
  const { phone } = parsed.value;
  const sent = sendContinueCode(visitor, phone);
  // The code step: a journey whose code check a busy server still serves (app/http/journey.server.ts).
  const journey = { "Set-Cookie": await journeyHeader() };
  if (sent.ok) return codeStep(phone, sent.resendAt, undefined, journey);
  // Refused (too soon, too many): the code step all the same, as a code sent before still works.
  const wait = sent.retryAfterSeconds ?? 60;
  return codeStep(phone, new Date(now().getTime() + wait * 1000).toISOString(), sent, journey);
}

export default function Continue() {
  const { chrome } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as Answer | undefined;
  const { lang } = chrome;
  // Checked by the server (the page ships no bundle); conform carries the values sent and the errors back.
  const [form, fields] = useForm<{ phone: string; code: string }>({ id: "continue-form", lastResult: answer?.result });
  const translated = (errors: string[] | undefined) => errors?.map((m) => tm(lang, m));
  const banner = translated(form.errors);
  if (answer?.step !== "code") {
    return (
      <ModalPage chrome={chrome} title={t(lang, "continue.title")}>
        <p>{t(lang, "continue.intro")}</p>
        <FormBanner messages={banner} />
        <form method="post" action="/enquiry/continue" id={form.id}>
          <Field
            label={t(lang, "form.phone")}
            {...getInputProps(fields.phone, { type: "tel" })}
            id="f-continue-phone"
            required
            errors={translated(fields.phone.errors)}
            inputMode="numeric"
            autoComplete="tel-national"
            maxLength={14}
            placeholder="98XXXXXXXX"
          />
          <div className="actions">
            <button type="submit" name="intent" value="send" className="primary">
              {t(lang, "form.sendCode")}
            </button>
          </div>
        </form>
      </ModalPage>
    );
  }
  const codeError = translated(fields.code.errors)?.[0] ?? "";
  return (
    <ModalPage chrome={chrome} title={t(lang, "continue.title")} scripts={[VERIFY_SCRIPT]}>
      <p>{t(lang, "continue.sentTo", { phone: maskPhone(answer.phone) })}</p>
      <FormBanner messages={banner} />
      <form method="post" action="/enquiry/continue" data-verify="" id={form.id}>
        <input type="hidden" name="phone" value={answer.phone} />
        <input type="hidden" name="resend_at" value={answer.resendAt} />
        <OtpField lang={lang} field={fields.code} error={codeError} />
        <OtpButtons
          lang={lang}
          submitLabel={t(lang, "continue.open")}
          resendAt={answer.resendAt}
          resendIn={answer.resendIn}
          hideWait={Boolean(banner?.length)}
        />
      </form>
      <p>
        <a href="/enquiry/continue">{t(lang, "continue.otherPhone")}</a>
      </p>
    </ModalPage>
  );
}
