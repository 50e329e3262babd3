import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageLanguage } from "~/http/language.server";
import { publicChrome } from "~/models/public-chrome.server";
import { publicLinks } from "~/components/public/links";
import { PublicShell } from "~/components/public/PublicShell";
import { groupedVideos, VIDEO_GROUP_ORDER } from "~/models/video.server";
import { topPrize } from "~/models/landing.server";
import { rupees, t, type TextKey } from "~/utils/i18n";

export const handle = { scripts: false };
export const links = publicLinks;
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: t(data?.chrome.lang ?? "en", "winners.title") },
];

/**
 * The winner gallery: videos grouped by the prize won (ten_lakhs, one_lakh, fifty_thousand), said
 * against this campaign's top prize; each thumbnail opens its video in a new tab.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return data({
    chrome: publicChrome(pageLanguage(request)),
    groups: groupedVideos(),
    order: VIDEO_GROUP_ORDER,
    prize: topPrize(),
  });
}

export default function WinnerList() {
  const { chrome, groups, order, prize } = useLoaderData<typeof loader>();
  const { lang } = chrome;
  const empty = order.every((g) => groups[g].length === 0);
  return (
    <PublicShell chrome={chrome}>
      <div className="winners-head">
        <a href="/" className="button">
          ← {t(lang, "common.back")}
        </a>
      </div>
      <h1>{t(lang, "winners.title")}</h1>
      {/* The groups are the prizes won, which may be larger than this campaign's: said against its top prize. */}
      <p>
        {t(lang, "winners.lead")}{" "}
        {prize > 0 ? t(lang, "winners.current", { amount: rupees(lang, prize).replace(" ", "\u00a0") }) : null}
      </p>
      {empty ? <p>{t(lang, "winners.none")}</p> : null}
      {order
        .filter((g) => groups[g].length)
        .map((g) => (
          <section key={g} className="video-group" id={g} aria-labelledby={`h-${g}`}>
            <h2 id={`h-${g}`}>{t(lang, `winners.${g}` as TextKey)}</h2>
            <ul className="videos">
              {groups[g].map((v) => (
                <li key={v.id}>
                  <a href={v.url} target="_blank" rel="noopener noreferrer" title={t(lang, "winners.watch")}>
                    <span className="thumb play">
                      {v.thumbnail_url ? (
                        <img src={v.thumbnail_url} alt="" loading="lazy" width={320} height={200} />
                      ) : null}
                    </span>
                    <span className="title">{v.title}</span>
                  </a>
                </li>
              ))}
            </ul>
          </section>
        ))}
    </PublicShell>
  );
}
