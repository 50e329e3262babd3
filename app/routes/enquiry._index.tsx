import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { pageLanguage } from "~/http/language.server";
import { publicChrome } from "~/models/public-chrome.server";
import { captchaSiteKey } from "~/http/captcha.server";
import { newFormToken } from "~/utils/crypto.server";
import { guardPublicPost } from "~/http/public-guard.server";
import { publicLinks } from "~/components/public/links";
import { PhoneConfirmStep, PreregistrationForm, type PreregResult } from "~/components/public/PreregistrationForm";
import { ModalPage } from "~/components/public/PublicShell";
import { PREREG_SCRIPT } from "~/components/public/scripts";
import { listBikeModels } from "~/models/bike-model.server";
import { listBranchOptions } from "~/models/branch.server";
import { fail, type Failure } from "~/utils/failure";
import { changeableEntry, changePreregistration } from "~/models/preregistration-change.server";
import {
  createPreregistration,
  reviewPreregistration,
  screenshotRefFor,
  storeScreenshot,
  withMissingProof,
  type Visitor,
} from "~/models/preregistration.server";
import { checkbox, publicPreregistrationSchema } from "~/schemas/preregistration";
import { text } from "~/schemas/primitives";
import { clientAddress } from "~/http/auth.server";
import { BODY_LIMITS, readBody } from "~/http/body.server";
import { echoForm, echoResult, fileField } from "~/http/echo.server";
import { pageFailure, readIntent, replyFailure } from "~/http/http.server";
import { t } from "~/utils/i18n";
import { ownsEntry, redirectOwning } from "~/http/owned-entries.server";
import { referralOf } from "~/http/referral.server";

/** Served without scripts; its form's steps: review (the default), back, save. */
export const handle = { scripts: false, intents: { review: null, back: null, save: null } } as const;
export const links = publicLinks;
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: t(data?.chrome.lang ?? "en", "landing.formTitle") },
];

/** The unverified entry this browser made, to correct ("Wrong number? Change it"), or null. */
async function entryToChange(request: Request, slug: string | null | undefined) {
  if (!slug || !(await ownsEntry(request, slug))) return null;
  return changeableEntry(slug);
}

export async function loader({ request }: LoaderFunctionArgs) {
  const entry = await entryToChange(request, new URL(request.url).searchParams.get("change"));
  const prefill: PreregResult | null = entry
    ? {
        initialValue: Object.fromEntries(
          Object.entries({
            name: entry.name,
            address: entry.address,
            email: entry.email,
            phone: entry.phone,
            citizenship_no: entry.citizenship_no,
            nearest_branch_id: entry.nearest_branch_id,
            bike_model_id: entry.bike_model_id,
            source: entry.source,
            note: entry.note,
            shared: entry.shared ? "on" : null,
            screenshot_ref: entry.shared && entry.screenshot_id ? screenshotRefFor(entry.screenshot_id) : null,
          })
            .filter(([, v]) => v !== null && v !== undefined && v !== "")
            .map(([k, v]) => [k, String(v)]),
        ),
      }
    : null;
  return data(
    {
      change: entry?.slug ?? null,
      prefill,
      chrome: publicChrome(pageLanguage(request)),
      models: listBikeModels().map(({ id, title }) => ({ id, title })),
      branches: listBranchOptions(),
      formToken: newFormToken(),
      captchaSiteKey: captchaSiteKey(),
    },
    { headers: { "Cache-Control": "private, no-cache" } },
  );
}

type Step = { step: "form" | "confirm"; result: PreregResult };

/** The form again with the post's values and the failure under its field, with the failure's status. */
function again(form: FormData, failure: Failure) {
  const reply = replyFailure(echoForm(form), failure);
  return data<Step>({ step: "form", result: reply.data.result }, reply.init ?? undefined);
}

/**
 * The form posts to /enquiry#form-errors (the error summary); a saved entry's
 * verify page is reached at #otp, its code field (a redirect without a fragment
 * would keep the post's).
 *
 * intent=review (the Save button): checks everything (rate limited like the
 * save) and shows the phone confirmation; intent=back: the form again with its
 * values; intent=save: creates and goes to the verify page (this browser then
 * owns the entry). A taken phone or a pending purchase answers the message
 * alone, nothing of the other entry.
 */
export async function action({ request }: ActionFunctionArgs) {
  const body = await readBody(request, { limit: BODY_LIMITS.upload, accept: ["urlencoded", "multipart"] });
  if ("ok" in body) {
    // An image too large to read is the screenshot field's error; anything else is the error page.
    if (body.code === "too_large") return again(new FormData(), fail.tooLarge(body.message, "screenshot"));
    throw pageFailure(body);
  }
  const form = body.kind === "form" ? body.form : new FormData();
  const intent = readIntent(form, handle.intents, "review");
  if (intent === "back") return data<Step>({ step: "form", result: echoResult(form) });

  const address = clientAddress(request);
  const save = intent === "save";
  const parsed = await guardPublicPost(body, publicPreregistrationSchema, {
    address,
    limit: "enquiry-ip",
    captcha: save,
  });
  if (!parsed.ok) {
    const sent = {
      shared: checkbox(false).parse(form.get("shared") ?? undefined),
      screenshot_ref: text(form.get("screenshot_ref")) ?? null,
      file: fileField(form, "screenshot"),
    };
    return again(form, withMissingProof(parsed, sent));
  }
  const visitor: Visitor = { channel: "public", address, referral: referralOf(request) };
  const screenshot = { file: fileField(form, "screenshot"), ref: parsed.value.screenshot_ref };
  const change = await entryToChange(request, String(form.get("change") ?? ""));
  if (change) {
    // The visitor's own unverified entry, corrected: the same record (the save checks everything).
    if (save) {
      const changed = await changePreregistration(visitor, change.slug, parsed.value, screenshot);
      if (changed.ok) {
        const wait = changed.phoneChanged && !changed.codeSent ? "?changed=1" : "";
        return redirect(`/enquiry/${change.slug}/verify${wait}#otp`);
      }
      return again(form, changed);
    }
    let ref = parsed.value.screenshot_ref ?? null;
    if (parsed.value.shared && screenshot.file) {
      const stored = await storeScreenshot(screenshot.file, null);
      if (!stored.ok) return again(form, stored);
      ref = screenshotRefFor(stored.id);
    }
    return data<Step>({
      step: "confirm",
      result: echoResult(form, {
        phone: parsed.value.phone,
        shared: parsed.value.shared ? "on" : null,
        screenshot_ref: ref,
      }),
    });
  }
  if (save) {
    const created = await createPreregistration(visitor, parsed.value, screenshot);
    if (created.ok) {
      const { slug } = created.preregistration;
      return redirectOwning(request, slug, `/enquiry/${slug}/verify#otp`);
    }
    return again(form, created);
  }
  const review = await reviewPreregistration(visitor, parsed.value, screenshot);
  if (!review.ok) return again(form, review);
  return data<Step>({
    step: "confirm",
    result: echoResult(form, {
      phone: review.value.phone,
      shared: review.value.shared ? "on" : null,
      screenshot_ref: review.screenshotRef,
    }),
  });
}

export default function Enquiry() {
  const { chrome, models, branches, formToken, captchaSiteKey, change, prefill } = useLoaderData<typeof loader>();
  const step = useActionData<typeof action>();
  const { lang } = chrome;
  return (
    <ModalPage chrome={chrome} title={t(lang, "landing.formTitle")} scripts={[PREREG_SCRIPT]}>
      {step?.step === "confirm" ? (
        <PhoneConfirmStep lang={lang} lastResult={step.result} captchaSiteKey={captchaSiteKey} />
      ) : (
        <PreregistrationForm
          lang={lang}
          open={chrome.registrationOpen}
          formToken={formToken}
          lastResult={step?.result ?? prefill}
          change={change}
          models={models}
          branches={branches}
          captchaSiteKey={captchaSiteKey}
        />
      )}
    </ModalPage>
  );
}
