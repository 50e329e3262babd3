import { data, redirect, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { DRAW_REVEAL_CSS, DRAW_REVEAL_SCRIPT, DrawReveal } from "~/components/DrawReveal";
import { publicChrome } from "~/components/public/chrome.server";
import { publicLinks } from "~/components/public/links";
import { ModalPage } from "~/components/public/PublicShell";
import { findPublicEntry, prizeSummary } from "~/models/preregistration.server";
import { notFound } from "~/utils/http.server";
import { rupees, t } from "~/utils/i18n";
import { maskPhone } from "~/utils/phone";

export const handle = { scripts: false };
export const links: LinksFunction = () => [...publicLinks(), { rel: "stylesheet", href: DRAW_REVEAL_CSS }];
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: t(data?.chrome.lang ?? "en", "draw.title") }];

/** The draw result of a verified entry: six rolling cells settling on the second thrill, and the total. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const entry = findPublicEntry(params.slug ?? "");
  if (!entry) throw notFound();
  const prize = prizeSummary(entry);
  if (!prize) throw redirect(`/enquiry/${entry.slug}/verify`);
  return data({ chrome: publicChrome(request), phone: maskPhone(entry.phone), ...prize });
}

export default function Draw() {
  const { chrome, phone, amount, first, total } = useLoaderData<typeof loader>();
  const { lang } = chrome;
  const congratulation =
    t(lang, "draw.congrats", { amount: rupees(lang, amount) }) +
    (first ? ` ${t(lang, "draw.withBonus", { bonus: rupees(lang, first) })}` : "");
  return (
    <ModalPage chrome={chrome} title={t(lang, "draw.title")} scripts={[DRAW_REVEAL_SCRIPT]}>
      <DrawReveal
        amount={amount}
        total={total}
        congratulation={congratulation}
        totalLabel={t(lang, "draw.total")}
        currency={t(lang, "common.rs")}
      />
      <p className="draw-phone">{t(lang, "draw.phone", { phone })}</p>
      <div className="actions" style={{ justifyContent: "center" }}>
        <a href="/" className="button primary" data-close="">
          {t(lang, "common.close")}
        </a>
      </div>
    </ModalPage>
  );
}
