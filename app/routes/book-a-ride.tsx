import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BookingForm, type BookingDefaults } from "~/components/public/BookingForm";
import { pageLanguage } from "~/http/language.server";
import { publicChrome } from "~/models/public-chrome.server";
import { captchaSiteKey } from "~/http/captcha.server";
import { newFormToken } from "~/utils/crypto.server";
import { publicLinks } from "~/components/public/links";
import { ModalPage } from "~/components/public/PublicShell";
import { CASCADE_SCRIPT } from "~/components/public/scripts";
import { listBikeModels } from "~/models/bike-model.server";
import { bookingBranches, bookTestRide, testRideByFormToken } from "~/models/test-ride.server";
import { testRideSchema } from "~/schemas/test-ride";
import { clientAddress } from "~/http/auth.server";
import { parseValue, readForm, type Body } from "~/http/body.server";
import { readIntent, replyFailure } from "~/http/http.server";
import { t } from "~/utils/i18n";
import { chargeAddress, checkCaptcha, screenPublicForm } from "~/http/public-guard.server";
import { referralOf } from "~/http/referral.server";

/** Served without scripts; its form books (the default) or narrows the place lists (refresh). */
export const handle = { scripts: false, intents: { book: null, refresh: null } } as const;
export const links = publicLinks;
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: t(data?.chrome.lang ?? "en", "book.title") }];

const THANKS = "/thankyou-for-test-ride-booking";
/** The thank-you page names what was booked. */
const thanks = (type: string) => (type === "BOOKING" ? `${THANKS}?type=BOOKING` : THANKS);

const text = (v: string | null, max = 100) => (v ?? "").slice(0, max);

/** "Book a Rides": ?type=BOOKING preselects a booking, ?utm_source is kept with the booking, ?state&district&city narrow. */
export async function loader({ request }: LoaderFunctionArgs) {
  const q = new URL(request.url).searchParams;
  const models = listBikeModels().map(({ id, title }) => ({ id, title }));
  const defaultValue: BookingDefaults = {
    type: q.get("type") === "BOOKING" ? "BOOKING" : "TESTRIDE",
    utm_source: text(q.get("utm_source")),
    bike_model_id: models[0] ? String(models[0].id) : "",
    state: text(q.get("state")),
    district: text(q.get("district")),
    city: text(q.get("city")),
  };
  return data(
    {
      chrome: publicChrome(pageLanguage(request)),
      models,
      allBranches: bookingBranches(),
      defaultValue,
      formToken: newFormToken(),
      captchaSiteKey: captchaSiteKey(),
    },
    { headers: { "Cache-Control": "private, no-cache" } },
  );
}

type ActionData = { result: SubmissionResult<string[]> };

/**
 * intent=refresh narrows the place lists (no JavaScript): the form again with
 * its values. Otherwise the booking: the same form token again goes straight
 * to the thank-you page; the guard (honeypot, the address's limit, the
 * captcha) and the schema, then one transaction for the booking and its
 * counters; the form again with the errors under their fields when refused.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  if (readIntent(form, handle.intents, "book") === "refresh") {
    const { initialValue } = parseWithZod(form, { schema: testRideSchema }).reply();
    return data<ActionData>({ result: { initialValue, error: {} } });
  }
  const address = clientAddress(request);
  const body: Body = { kind: "form", form };
  const parsed = await parseValue(body, testRideSchema);
  if (parsed.ok && testRideByFormToken(parsed.value.form_token)) return redirect(thanks(parsed.value.type));
  const screened = screenPublicForm(body, address, "test-ride-ip");
  if (screened) return replyFailure(form, screened);
  if (!parsed.ok) return replyFailure(form, parsed);
  const captcha = await checkCaptcha(body, address);
  if (captcha) return replyFailure(form, captcha);
  const booked = bookTestRide(parsed.value, {
    charge: chargeAddress("test-ride-ip", address),
    referral: referralOf(request),
  });
  return booked.ok ? redirect(thanks(parsed.value.type)) : replyFailure(form, booked);
}

export default function BookARide() {
  const actionData = useActionData<typeof action>();
  const {
    chrome,
    models,
    allBranches,
    defaultValue,
    formToken,
    captchaSiteKey: siteKey,
  } = useLoaderData<typeof loader>();
  return (
    <ModalPage chrome={chrome} title={t(chrome.lang, "book.title")} scripts={[CASCADE_SCRIPT]}>
      <BookingForm
        lang={chrome.lang}
        lastResult={actionData?.result}
        defaultValue={defaultValue}
        allBranches={allBranches}
        models={models}
        formToken={formToken}
        captchaSiteKey={siteKey}
      />
    </ModalPage>
  );
}
