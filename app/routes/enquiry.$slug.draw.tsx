import { data, redirect, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { DRAW_REVEAL_CSS, DRAW_REVEAL_SCRIPT, DrawReveal } from "~/components/DrawReveal";
import { publicChrome } from "~/components/public/chrome.server";
import { EntryDetails } from "~/components/public/EntryDetails";
import { publicLinks } from "~/components/public/links";
import { ModalPage } from "~/components/public/PublicShell";
import { findPublicEntry, ownerDetails, prizeSummary } from "~/models/preregistration.server";
import { notFound } from "~/utils/http.server";
import { drawCongratulation, t } from "~/utils/i18n";
import { ownsEntry } from "~/utils/owned-entries.server";
import { maskPhone } from "~/utils/phone";

export const handle = { scripts: false };
export const links: LinksFunction = () => [...publicLinks(), { rel: "stylesheet", href: DRAW_REVEAL_CSS }];
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: t(data?.chrome.lang ?? "en", "draw.title") }];

/**
 * The draw result of a verified entry: six rolling cells settling on the second
 * thrill, and the total. Anyone with the address sees the masked phone and the
 * prize; the entry's details only the browser that created or proved it.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const entry = findPublicEntry(params.slug ?? "");
  if (!entry) throw notFound();
  const prize = prizeSummary(entry);
  if (!prize) throw redirect(`/enquiry/${entry.slug}/verify`);
  const details = (await ownsEntry(request, entry.slug)) ? ownerDetails(entry) : null;
  return data(
    { chrome: publicChrome(request), phone: maskPhone(entry.phone), ...prize, details },
    { headers: { "Cache-Control": "private, no-cache" } },
  );
}

export default function Draw() {
  const { chrome, phone, amount, first, total, details } = useLoaderData<typeof loader>();
  const { lang } = chrome;
  return (
    <ModalPage chrome={chrome} title={t(lang, "draw.title")} scripts={[DRAW_REVEAL_SCRIPT]}>
      <DrawReveal
        amount={amount}
        total={total}
        congratulation={drawCongratulation(lang, { amount, first, total })}
        totalLabel={t(lang, "draw.total")}
        currency={t(lang, "common.rs")}
      />
      <p className="draw-phone">{t(lang, "draw.phone", { phone })}</p>
      <EntryDetails lang={lang} details={details} />
      <div className="actions" style={{ justifyContent: "center" }}>
        <a href="/" className="button primary" data-close="">
          {t(lang, "common.close")}
        </a>
      </div>
    </ModalPage>
  );
}
