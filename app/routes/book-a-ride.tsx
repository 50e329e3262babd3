import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BookingForm, type BookingValues } from "~/components/public/BookingForm";
import { captchaSiteKey, newFormToken, publicChrome } from "~/components/public/chrome.server";
import { publicLinks } from "~/components/public/links";
import { ModalPage } from "~/components/public/PublicShell";
import { CASCADE_SCRIPT } from "~/components/public/scripts";
import { listBikeModels } from "~/models/bike-model.server";
import { bookingBranches, createTestRide, narrowBooking } from "~/models/test-ride.server";
import { t } from "~/utils/i18n";

export const handle = { scripts: false };
export const links = publicLinks;
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: t(data?.chrome.lang ?? "en", "book.title") }];

const text = (v: FormDataEntryValue | string | null | undefined, max = 100) =>
  typeof v === "string" ? v.slice(0, max) : "";

/** "Book a Rides": ?type=BOOKING preselects a booking, ?utm_source is kept with the booking, ?state&district&city narrow. */
export async function loader({ request }: LoaderFunctionArgs) {
  const q = new URL(request.url).searchParams;
  const models = listBikeModels().map(({ id, title }) => ({ id, title }));
  const all = bookingBranches();
  const values: BookingValues = {
    type: q.get("type") === "BOOKING" ? "BOOKING" : "TESTRIDE",
    utm_source: text(q.get("utm_source")),
    bike_model_id: models[0] ? String(models[0].id) : "",
  };
  return data(
    {
      chrome: publicChrome(request),
      models,
      allBranches: all,
      cascade: narrowBooking(all, { state: q.get("state"), district: q.get("district"), city: q.get("city") }),
      values,
      formToken: newFormToken(),
      captchaSiteKey: captchaSiteKey(),
    },
    { headers: { "Cache-Control": "private, no-cache" } },
  );
}

type Result = { values: BookingValues; cascade: ReturnType<typeof narrowBooking>; errors: Record<string, string[]> };

/** intent=refresh narrows the place lists (no JavaScript); otherwise the booking is made and the thank-you page follows. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const values: BookingValues = {
    type: text(form.get("type")),
    name: text(form.get("name")),
    email: text(form.get("email")),
    phone: text(form.get("phone"), 20),
    bike_model_id: text(form.get("bike_model_id")),
    utm_source: text(form.get("utm_source")),
    form_token: text(form.get("form_token")),
  };
  const cascade = narrowBooking(bookingBranches(), {
    state: text(form.get("state")),
    district: text(form.get("district")),
    city: text(form.get("city")),
    branch_id: text(form.get("branch_id")),
  });
  if (form.get("intent") === "refresh") return data<Result>({ values, cascade, errors: {} });
  const result = await createTestRide(form, { clientAddress: context.clientAddress });
  if (result.ok) return redirect("/thankyou-for-test-ride-booking");
  return data<Result>(
    { values, cascade, errors: result.errors },
    { status: result.reason === "rate_limited" ? 429 : 400 },
  );
}

export default function BookARide() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { chrome } = loaded;
  return (
    <ModalPage chrome={chrome} title={t(chrome.lang, "book.title")} scripts={[CASCADE_SCRIPT]}>
      <BookingForm
        lang={chrome.lang}
        values={result?.values ?? loaded.values}
        errors={result?.errors}
        cascade={result?.cascade ?? loaded.cascade}
        allBranches={loaded.allBranches}
        models={loaded.models}
        formToken={loaded.formToken}
        captchaSiteKey={loaded.captchaSiteKey}
      />
    </ModalPage>
  );
}
