import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { captchaSiteKey, newFormToken, publicChrome } from "~/components/public/chrome.server";
import { failureStatus, formValues, tooLarge } from "~/components/public/enquiry.server";
import { publicLinks } from "~/components/public/links";
import { PhoneConfirmStep, PreregistrationForm, type PreregFormValues } from "~/components/public/PreregistrationForm";
import { ModalPage } from "~/components/public/PublicShell";
import { PREREG_SCRIPT } from "~/components/public/scripts";
import { listBikeModels } from "~/models/bike-model.server";
import { listBranchOptions } from "~/models/branch.server";
import { createPreregistration, reviewPreregistration, type CreateContext } from "~/models/preregistration.server";
import { t } from "~/utils/i18n";

export const handle = { scripts: false };
export const links = publicLinks;
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: t(data?.chrome.lang ?? "en", "landing.formTitle") },
];

export async function loader({ request }: LoaderFunctionArgs) {
  return data(
    {
      chrome: publicChrome(request),
      models: listBikeModels().map(({ id, title }) => ({ id, title })),
      branches: listBranchOptions(),
      formToken: newFormToken(),
      captchaSiteKey: captchaSiteKey(),
    },
    { headers: { "Cache-Control": "private, no-cache" } },
  );
}

type Result = { step: "form" | "confirm"; values: PreregFormValues; errors: Record<string, string[]> };

/**
 * intent=review (the Save button): checks everything and shows the phone confirmation;
 * intent=back: the form again with its values; intent=save: creates and goes to the verify page.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (tooLarge(request)) {
    return data<Result>(
      { step: "form", values: {}, errors: { screenshot: ["The image may not be larger than 10 MB."] } },
      { status: 413 },
    );
  }
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "review");
  const values = formValues(form);
  const ctx: CreateContext = { channel: "public", branchId: null, userId: null, clientAddress: context.clientAddress };
  if (intent === "back") return data<Result>({ step: "form", values, errors: {} });
  if (intent === "save") {
    const result = await createPreregistration(form, ctx);
    if (result.ok) return redirect(`/enquiry/${result.preregistration.slug}/verify`);
    return data<Result>({ step: "form", values, errors: result.errors }, { status: failureStatus(result) });
  }
  const review = await reviewPreregistration(form, ctx);
  if (!review.ok)
    return data<Result>({ step: "form", values, errors: review.errors }, { status: failureStatus(review) });
  const confirmed: PreregFormValues = { ...values, phone: review.value.phone };
  if (review.screenshotRef) confirmed.screenshot_ref = review.screenshotRef;
  else delete confirmed.screenshot_ref;
  if (!review.value.shared) delete confirmed.shared;
  return data<Result>({ step: "confirm", values: confirmed, errors: {} });
}

export default function Enquiry() {
  const { chrome, models, branches, formToken, captchaSiteKey } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { lang } = chrome;
  return (
    <ModalPage chrome={chrome} title={t(lang, "landing.formTitle")} scripts={[PREREG_SCRIPT]}>
      {result?.step === "confirm" ? (
        <PhoneConfirmStep lang={lang} values={result.values} captchaSiteKey={captchaSiteKey} errors={result.errors} />
      ) : (
        <PreregistrationForm
          lang={lang}
          open={chrome.registrationOpen}
          formToken={formToken}
          values={result?.values}
          errors={result?.errors}
          models={models}
          branches={branches}
          captchaSiteKey={captchaSiteKey}
        />
      )}
    </ModalPage>
  );
}
