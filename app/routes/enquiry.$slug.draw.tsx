import { data, redirect, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { DRAW_REVEAL_CSS, DRAW_REVEAL_SCRIPT, DrawReveal } from "~/components/DrawReveal";
import { pageLanguage } from "~/http/language.server";
import { publicChrome } from "~/models/public-chrome.server";
import { EntryDetails } from "~/components/public/EntryDetails";
import { publicLinks } from "~/components/public/links";
import { CloseLink, ModalPage } from "~/components/public/PublicShell";
import { SHARE_SCRIPT } from "~/components/public/scripts";
import { drawReference } from "~/models/fair-draw.server";
import { topPrize } from "~/models/landing.server";
import { findPublicEntry, ownerDetails } from "~/models/preregistration-read.server";
import { prizeSummary } from "~/models/preregistration-verify.server";
import { notFound } from "~/http/http.server";
import { DIGITS, drawCongratulation, rupees, t } from "~/utils/i18n";
import { ownsEntry } from "~/http/owned-entries.server";
import { maskPhone } from "~/utils/phone";
import { takeReveal } from "~/http/reveal.server";

export const handle = { scripts: false };
export const links: LinksFunction = () => [...publicLinks(), { rel: "stylesheet", href: DRAW_REVEAL_CSS }];
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: t(data?.chrome.lang ?? "en", "draw.title") }];

/**
 * The draw result of a verified entry: six rolling cells settling on the second
 * thrill, and the total; then what to do next (the showroom with this phone, a
 * test ride), the entry's reference to say at the counter (it also finds the draw on /fair-draws) and a way to share the campaign. The roll
 * plays on the visit that follows the verification; any later visit shows the
 * result at rest (app/http/reveal.server.ts). Anyone with the address sees the
 * masked phone and the prize; the entry's details only the browser that
 * created or proved it.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const entry = findPublicEntry(params.slug ?? "");
  if (!entry) throw notFound();
  // The draw was fixed at verification: this waits for its beacon round (at most seconds).
  const prize = await prizeSummary(entry);
  if (!prize) throw redirect(`/enquiry/${entry.slug}/verify`);
  const details = (await ownsEntry(request, entry.slug)) ? ownerDetails(entry) : null;
  const reveal = await takeReveal(request, entry.slug);
  const origin = new URL(request.url).origin;
  const headers = new Headers(reveal.headers);
  headers.set("Cache-Control", "private, no-cache");
  return data(
    {
      chrome: publicChrome(pageLanguage(request)),
      phone: maskPhone(entry.phone),
      reference: entry.ref ?? drawReference(entry.slug),
      roll: reveal.roll,
      shareUrl: `${origin}/?utm_source=share`,
      topPrize: topPrize(),
      ...prize,
      details,
    },
    { headers },
  );
}

export default function Draw() {
  const { chrome, phone, amount, first, total, details, reference, roll, shareUrl, topPrize } =
    useLoaderData<typeof loader>();
  const { lang } = chrome;
  const shareText = t(lang, "draw.shareText", { amount: rupees(lang, topPrize || amount) });
  const encoded = encodeURIComponent(shareUrl);
  return (
    <ModalPage chrome={chrome} title={t(lang, "draw.title")} scripts={[DRAW_REVEAL_SCRIPT, SHARE_SCRIPT]}>
      <DrawReveal
        amount={amount}
        total={total}
        settled={!roll}
        congratulation={drawCongratulation(lang, { amount, first, total })}
        totalLabel={t(lang, "draw.total")}
        currency={t(lang, "common.rs")}
        digits={DIGITS[lang]}
      />
      <p className="draw-phone">{t(lang, "draw.phone", { phone })}</p>
      <section className="next" aria-labelledby="next-title">
        <h2 id="next-title">{t(lang, "draw.next")}</h2>
        <p>{t(lang, "draw.visit", { phone })}</p>
        <p className="reference">
          {t(lang, "draw.reference")}: <code>{reference}</code>
          <br />
          <small>{t(lang, "draw.referenceHint")}</small>{" "}
          <a href={`/fair-draws?ref=${reference}`}>{t(lang, "fair.link")}</a>
        </p>
        <p className="actions">
          <a href="/book-a-ride" className="button primary">
            {t(lang, "draw.book")}
          </a>
          <a href="/showrooms" className="button">
            {t(lang, "draw.showrooms")}
          </a>
        </p>
        <p>{t(lang, "draw.shareHint")}</p>
        <div className="share" data-share="" data-url={shareUrl} data-text={shareText}>
          <button type="button" className="js-share primary">
            {t(lang, "draw.share")}
          </button>
          <span className="share-links">
            <a
              className="button"
              href={`https://www.facebook.com/sharer/sharer.php?u=${encoded}`}
              target="_blank"
              rel="noopener noreferrer"
            >
              Facebook
            </a>{" "}
            <a
              className="button"
              href={`https://wa.me/?text=${encodeURIComponent(`${shareText} ${shareUrl}`)}`}
              target="_blank"
              rel="noopener noreferrer"
            >
              WhatsApp
            </a>
          </span>
        </div>
      </section>
      <EntryDetails lang={lang} details={details} />
      <div className="actions centered">
        <CloseLink className="button primary close-button">{t(lang, "common.close")}</CloseLink>
      </div>
    </ModalPage>
  );
}
