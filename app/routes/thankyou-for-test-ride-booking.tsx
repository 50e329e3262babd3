import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageLanguage } from "~/http/language.server";
import { publicChrome } from "~/models/public-chrome.server";
import { publicLinks } from "~/components/public/links";
import { CloseLink, ModalPage } from "~/components/public/PublicShell";
import { t } from "~/utils/i18n";

export const handle = { scripts: false };
export const links = publicLinks;
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: t(data?.chrome.lang ?? "en", data?.booking ? "thanks.titleBooking" : "thanks.title") },
];

/** The thank-you of a booking: the spec's test-ride wording, or its twin for a purchase booking (?type=BOOKING). */
export async function loader({ request }: LoaderFunctionArgs) {
  const booking = new URL(request.url).searchParams.get("type") === "BOOKING";
  return data({ chrome: publicChrome(pageLanguage(request)), booking });
}

export default function ThankYou() {
  const { chrome, booking } = useLoaderData<typeof loader>();
  const { lang } = chrome;
  return (
    <ModalPage chrome={chrome} title={t(lang, booking ? "thanks.titleBooking" : "thanks.title")}>
      <div className="thanks">
        <p>{t(lang, booking ? "thanks.bookedBOOKING" : "thanks.bookedTESTRIDE")}</p>
        <p>{t(lang, "thanks.text")}</p>
        <p>
          <a href={chrome.website} target="_blank" rel="noopener noreferrer">
            {t(lang, "thanks.website")}
          </a>
        </p>
        <div className="actions centered">
          <CloseLink className="button primary">{t(lang, "thanks.back")}</CloseLink>
        </div>
      </div>
    </ModalPage>
  );
}
