import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { captchaSiteKey, newFormToken, publicChrome } from "~/components/public/chrome.server";
import { publicLinks } from "~/components/public/links";
import { PreregistrationForm } from "~/components/public/PreregistrationForm";
import { PublicShell } from "~/components/public/PublicShell";
import { PREREG_SCRIPT } from "~/components/public/scripts";
import { listBikeModels } from "~/models/bike-model.server";
import { listBranchOptions } from "~/models/branch.server";
import { landingSettings } from "~/models/settings.server";
import { t } from "~/utils/i18n";

export const handle = { scripts: false };
export const links = publicLinks;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: t(data?.chrome.lang ?? "en", "site.title") },
  { name: "description", content: t(data?.chrome.lang ?? "en", "landing.tagline") },
];

/** The landing page: "Share It. Win It.", the campaign state, links to every public modal, and the pre-registration form. */
export async function loader({ request }: LoaderFunctionArgs) {
  const utm = new URL(request.url).searchParams.get("utm_source")?.slice(0, 100) ?? "";
  const chrome = publicChrome(request);
  return data(
    {
      chrome,
      ...landingSettings(chrome.lang),
      models: listBikeModels().map(({ id, title }) => ({ id, title })),
      branches: listBranchOptions(),
      formToken: newFormToken(),
      captchaSiteKey: captchaSiteKey(),
      utm,
    },
    { headers: { "Cache-Control": "private, no-cache" } },
  );
}

export default function Landing() {
  const { chrome, models, branches, formToken, captchaSiteKey, utm, video, closedMessage } =
    useLoaderData<typeof loader>();
  const { lang, registrationOpen: open } = chrome;
  const book = `/book-a-ride${utm ? `?${new URLSearchParams({ utm_source: utm })}` : ""}`;
  return (
    <PublicShell chrome={chrome} scripts={[PREREG_SCRIPT]}>
      <section className="hero" aria-labelledby="hero-title">
        <p className={`state ${open ? "open" : "closed"}`}>
          {open ? t(lang, "landing.open") : t(lang, "landing.closed")}
        </p>
        {!open && closedMessage ? <p className="banner banner-closed">{closedMessage}</p> : null}
        <h1 id="hero-title">{t(lang, "site.title")}</h1>
        <p>{t(lang, "landing.tagline")}</p>
        <p>{t(lang, "landing.bonus")}</p>
        {open ? (
          <a className="cta" href="#register">
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
      <section id="register" className="card" aria-labelledby="register-title">
        <h2 id="register-title">{open ? t(lang, "landing.formTitle") : t(lang, "landing.closed")}</h2>
        <PreregistrationForm
          lang={lang}
          open={open}
          formToken={formToken}
          models={models}
          branches={branches}
          captchaSiteKey={captchaSiteKey}
          id="landing-prereg"
        />
      </section>
    </PublicShell>
  );
}
