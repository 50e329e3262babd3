import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { publicChrome } from "~/components/public/chrome.server";
import { publicLinks } from "~/components/public/links";
import { PublicShell } from "~/components/public/PublicShell";
import { landingSettings } from "~/models/settings.server";
import { t } from "~/utils/i18n";

export const handle = { scripts: false };
export const links = publicLinks;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: t(data?.chrome.lang ?? "en", "site.title") },
  { name: "description", content: t(data?.chrome.lang ?? "en", "landing.tagline") },
];

/**
 * The landing page: "Share It. Win It.", the campaign state, the way to the
 * pre-registration form (/enquiry) and links to every public modal. It holds
 * nothing of one visitor (the form and its token live on /enquiry), so one
 * rendering serves everyone (app/utils/page-cache.server.ts; decision 4).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const utm = new URL(request.url).searchParams.get("utm_source")?.slice(0, 100) ?? "";
  const chrome = publicChrome(request);
  return data({ chrome, ...landingSettings(chrome.lang), utm });
}

export default function Landing() {
  const { chrome, utm, video, closedMessage } = useLoaderData<typeof loader>();
  const { lang, registrationOpen: open } = chrome;
  const query = utm ? `?${new URLSearchParams({ utm_source: utm })}` : "";
  const book = `/book-a-ride${query}`;
  return (
    <PublicShell chrome={chrome}>
      <section className="hero" aria-labelledby="hero-title">
        <p className={`state ${open ? "open" : "closed"}`}>
          {open ? t(lang, "landing.open") : t(lang, "landing.closed")}
        </p>
        {open ? null : <p className="banner banner-closed">{t(lang, "landing.closedBanner")}</p>}
        {!open && closedMessage ? <p className="banner banner-closed">{closedMessage}</p> : null}
        <h1 id="hero-title">{t(lang, "site.title")}</h1>
        <p>{t(lang, "landing.tagline")}</p>
        <p>{t(lang, "landing.bonus")}</p>
        {open ? (
          <a className="cta" href={`/enquiry${query}`}>
            {t(lang, "nav.preregister")}
          </a>
        ) : null}
      </section>
      <nav aria-label={t(lang, "landing.more")}>
        <ul className="tiles">
          <li>
            <a href="/showrooms" data-modal="">
              {t(lang, "nav.showrooms")}
            </a>
          </li>
          <li>
            <a href="/winner-list">{t(lang, "nav.winners")}</a>
          </li>
          <li>
            <a href="/scheme" data-modal="">
              {t(lang, "nav.scheme")}
            </a>
          </li>
          <li>
            <a href="/terms" data-modal="">
              {t(lang, "nav.terms")}
            </a>
          </li>
          <li>
            <a href="/privacy-policy" data-modal="">
              {t(lang, "nav.privacy")}
            </a>
          </li>
          {video ? (
            <li>
              <a href={video} target="_blank" rel="noopener noreferrer">
                {t(lang, "nav.video")}
              </a>
            </li>
          ) : null}
          <li>
            <a href={book} data-modal="">
              {t(lang, "nav.book")}
            </a>
          </li>
        </ul>
      </nav>
    </PublicShell>
  );
}
