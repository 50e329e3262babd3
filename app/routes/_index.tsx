import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageLanguage } from "~/http/language.server";
import { publicChrome } from "~/models/public-chrome.server";
import { publicLinks } from "~/components/public/links";
// Book a Ride opens here as a dialog: its cascade script runs from this page (app/browser/common.ts).
import { CASCADE_SCRIPT } from "~/components/public/scripts";
import { PublicShell } from "~/components/public/PublicShell";
import { landingBikes, topPrize } from "~/models/landing.server";
import { landingSettings } from "~/models/settings.server";
import { rupees, t } from "~/utils/i18n";

export const handle = { scripts: false };
export const links = publicLinks;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: t(data?.chrome.lang ?? "en", "site.title") },
  { name: "description", content: t(data?.chrome.lang ?? "en", "landing.tagline") },
];

/**
 * The landing page: the campaign ("Share It. Win It.", the most a visitor can
 * win today, the bikes), its state, the way to the pre-registration form
 * (/enquiry) and to every public modal. It holds nothing of one visitor (the
 * form and its token live on /enquiry), so one rendering serves everyone
 * (app/http/page-cache.server.ts; decision 4).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const utm = new URL(request.url).searchParams.get("utm_source")?.slice(0, 100) ?? "";
  const chrome = publicChrome(pageLanguage(request));
  return data({ chrome, ...landingSettings(chrome.lang), utm, prize: topPrize(), bikes: landingBikes() });
}

/** Bike thumbnails: below the fold on a phone, so lazy; sized so nothing moves as they arrive. */
const BIKE_SIZES = "(min-width: 640px) 220px, 45vw";
/** The stored thumbnail and its smaller copies (app/models/image-variant.server.ts). */
const variants = (src: string, width: number) =>
  [240, 480]
    .filter((w) => w < width)
    .map((w) => `${src}?w=${w} ${w}w`)
    .concat(`${src} ${width}w`)
    .join(", ");

/** The first bikes show; the rest open under "See all" (no script), so the page stays short on a phone. */
const SHOWN_BIKES = 4;

type Bike = ReturnType<typeof landingBikes>[number];

function BikeList({ bikes }: { bikes: Bike[] }) {
  return (
    <ul>
      {bikes.map((b) => (
        <li key={b.id}>
          {b.src ? (
            <img
              src={`${b.src}?w=480`}
              srcSet={variants(b.src, b.width)}
              sizes={BIKE_SIZES}
              width={b.width}
              height={b.height}
              loading="lazy"
              decoding="async"
              alt=""
            />
          ) : (
            <span className="bike-blank" aria-hidden="true" />
          )}
          <span>{b.title}</span>
        </li>
      ))}
    </ul>
  );
}

export default function Landing() {
  const { chrome, utm, video, closedMessage, prize, bikes } = useLoaderData<typeof loader>();
  const { lang, registrationOpen: open } = chrome;
  const query = utm ? `?${new URLSearchParams({ utm_source: utm })}` : "";
  const book = `/book-a-ride${query}`;
  return (
    <PublicShell chrome={chrome} className="landing" scripts={[CASCADE_SCRIPT]}>
      <section className="hero" aria-labelledby="hero-title">
        <p className={`state ${open ? "open" : "closed"}`}>
          {open ? t(lang, "landing.open") : t(lang, "landing.closed")}
        </p>
        <h1 id="hero-title">{t(lang, "site.title")}</h1>
        {/* Closed: no prize promised beside "Registration Closed". */}
        {open && prize > 0 ? (
          <p className="prize">
            <strong>{t(lang, "landing.prize", { amount: rupees(lang, prize).replace(" ", "\u00a0") })}</strong>{" "}
            <span>{t(lang, "landing.prizeNote")}</span>
          </p>
        ) : (
          <p>{t(lang, "landing.tagline")}</p>
        )}
        {open ? <p className="bonus">{t(lang, "landing.bonus")}</p> : null}
        {open ? null : (
          <>
            <p className="banner banner-closed">{t(lang, "landing.closedBanner")}</p>
            {closedMessage ? <p className="banner banner-closed">{closedMessage}</p> : null}
            <p>{t(lang, "landing.closedLead")}</p>
          </>
        )}
        <p className="hero-actions">
          {open ? (
            <a className="cta" href={`/enquiry${query}`}>
              {t(lang, "nav.preregister")}
            </a>
          ) : null}
          <a className={open ? "cta cta-ghost" : "cta"} href={book} data-modal="">
            {t(lang, "nav.book")}
          </a>
        </p>
      </section>
      {/* The information links right under the hero: on a phone they start within the first screen. */}
      <nav aria-labelledby="info-title" className="info">
        <h2 id="info-title">{t(lang, "landing.info")}</h2>
        <ul className="tiles">
          <li>
            <a href="/showrooms" data-modal="">
              <span>{t(lang, "nav.showrooms")}</span>
            </a>
          </li>
          <li>
            <a href="/winner-list">
              <span>{t(lang, "nav.winners")}</span>
            </a>
          </li>
          <li>
            <a href="/fair-draws">
              <span>{t(lang, "fair.title")}</span>
            </a>
          </li>
          <li>
            <a href="/scheme" data-modal="">
              <span>{t(lang, "nav.scheme")}</span>
            </a>
          </li>
          <li>
            <a href="/terms" data-modal="">
              <span>{t(lang, "nav.terms")}</span>
            </a>
          </li>
          <li>
            <a href="/privacy-policy" data-modal="">
              <span>{t(lang, "nav.privacy")}</span>
            </a>
          </li>
          {video ? (
            <li>
              <a href={video} target="_blank" rel="noopener noreferrer">
                <span>{t(lang, "nav.video")}</span>
              </a>
            </li>
          ) : null}
        </ul>
      </nav>
      {open ? (
        <section className="how" aria-labelledby="how-title">
          <h2 id="how-title">{t(lang, "landing.how")}</h2>
          <ol className="steps">
            <li>{t(lang, "landing.step1")}</li>
            <li>{t(lang, "landing.step2")}</li>
            <li>{t(lang, "landing.step3")}</li>
          </ol>
        </section>
      ) : null}
      {bikes.length ? (
        <section className="bikes" aria-labelledby="bikes-title">
          <h2 id="bikes-title">{t(lang, "landing.bikes")}</h2>
          <BikeList bikes={bikes.slice(0, SHOWN_BIKES)} />
          {bikes.length > SHOWN_BIKES ? (
            <details className="more-bikes">
              <summary>{t(lang, "landing.allBikes", { count: bikes.length })}</summary>
              <BikeList bikes={bikes.slice(SHOWN_BIKES)} />
            </details>
          ) : null}
        </section>
      ) : null}
    </PublicShell>
  );
}
