import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageLanguage } from "~/http/language.server";
import { publicChrome } from "~/models/public-chrome.server";
import { prizeText } from "~/components/public/fair-prize";
import { publicLinks } from "~/components/public/links";
import { PublicShell } from "~/components/public/PublicShell";
import { FAIR_DRAWS_SCRIPT } from "~/components/public/scripts";
import { publishedDayPage } from "~/models/fair-draw.server";
import { t, type Lang } from "~/utils/i18n";
import { displayDateTime } from "~/utils/time";

export const handle = { scripts: false };
export const links = publicLinks;
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: t(data?.chrome.lang ?? "en", "fair.day.title", { date: data?.day.date ?? "" }) },
];

type Row = {
  seq: number;
  kind: "entry" | "draw";
  time: string;
  date: string;
  id: string;
  round?: "second" | "third";
  beacon_round: number | null;
  source?: "beacon" | "house";
  prize?: { amount: number; outcome: string };
};

/**
 * GET /fair-draws/{date}: the day's terms, beacon, house commitment (and seed once closed), chain
 * head, its records in chain order a page at a time (`?page=N`, or `?at=SEQ` for the page that
 * holds a record), and the in-browser check of the whole day (what the server serves now, or a
 * saved copy).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const date = params.date ?? "";
  const query = new URL(request.url).searchParams;
  const wanted = (name: string) => (/^\d{1,9}$/.test(query.get(name) ?? "") ? Number(query.get(name)) : undefined);
  const day = /^\d{4}-\d{2}-\d{2}$/.test(date)
    ? publishedDayPage(date, { page: wanted("page"), seq: wanted("at") })
    : null;
  if (!day) throw new Response("Not Found", { status: 404 });
  const { records, terms: _terms, ...summary } = day;
  const rows = records.map((r) => JSON.parse(r.text) as Row);
  // The round of a draw is its entry's.
  const roundOf = new Map(rows.filter((r) => r.kind === "entry").map((r) => [r.id, r.round]));
  return data(
    {
      chrome: publicChrome(pageLanguage(request)),
      day: summary,
      rows: rows.map((r) => ({ ...r, round: r.round ?? roundOf.get(r.id) })),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export default function FairDrawDay() {
  const { chrome, day, rows } = useLoaderData<typeof loader>();
  const { lang } = chrome;
  const json = `/api/v1/fair-draws/${day.date}`;
  return (
    <PublicShell chrome={chrome} scripts={[FAIR_DRAWS_SCRIPT]}>
      <p>
        <a href="/fair-draws">← {t(lang, "fair.day.back")}</a>
      </p>
      <h1>{t(lang, "fair.day.title", { date: day.date })}</h1>
      <p className="fair-proves">{t(lang, "fair.proves")}</p>
      {day.chain?.name === "demo" ? (
        <p className="banner">{t(lang, "fair.beacon.demo")}</p>
      ) : (
        <p>{day.chain ? t(lang, "fair.beacon.name", { name: day.chain.name }) : t(lang, "fair.beacon.none")}</p>
      )}
      <dl className="fair-day">
        <dt>{t(lang, "fair.col.terms")}</dt>
        <dd>
          <code>{day.terms_hash}</code>
        </dd>
        <dt>{t(lang, "fair.col.seed")}</dt>
        <dd>{day.house_seed ? <code>{day.house_seed}</code> : t(lang, "fair.seed.hidden")}</dd>
        <dt>{t(lang, "fair.col.head")}</dt>
        <dd>
          <code>{day.head ?? "—"}</code>
        </dd>
        <dt>{t(lang, "fair.col.entries")}</dt>
        <dd>{day.entries}</dd>
        <dt>{t(lang, "fair.col.draws")}</dt>
        <dd>{day.draws}</dd>
        <dt>{t(lang, "fair.col.house")}</dt>
        <dd>{day.house}</dd>
      </dl>
      <p>
        <a href={json}>{t(lang, "fair.day.json")}</a>
      </p>
      {day.closed ? null : <p>{t(lang, "fair.day.open")}</p>}
      <div
        data-fair-check=""
        hidden
        data-url={json}
        data-signatures="/fair-draws/signatures.js"
        data-checking={t(lang, "fair.day.checking")}
        data-ok={t(lang, "fair.day.ok")}
        data-bad={t(lang, "fair.day.bad")}
      >
        <button type="button" className="primary">
          {t(lang, "fair.day.check")}
        </button>
        <p>
          <label htmlFor="fair-file">{t(lang, "fair.day.file")}</label>
          <br />
          <input id="fair-file" type="file" accept="application/json,.json" />
        </p>
        <p role="status" aria-live="polite" />
      </div>
      <p>{t(lang, "fair.check.text")}</p>
      <pre className="fair-command">
        <code>
          node scripts/verify-draws.mjs {json}
          {"\n"}python3 scripts/verify_draws.py {json}
        </code>
      </pre>
      {day.pages > 1 ? <DayPager lang={lang} date={day.date} page={day.page} pages={day.pages} /> : null}
      {rows.length ? (
        <div
          className="table-scroll"
          tabIndex={0}
          role="region"
          aria-label={t(lang, "fair.day.records", { date: day.date })}
        >
          <table className="fair-records">
            <thead>
              <tr>
                <th scope="col">{t(lang, "fair.col.seq")}</th>
                <th scope="col">{t(lang, "fair.col.time")}</th>
                <th scope="col">{t(lang, "fair.col.kind")}</th>
                <th scope="col">{t(lang, "fair.col.ref")}</th>
                <th scope="col">{t(lang, "fair.col.round")}</th>
                <th scope="col">{t(lang, "fair.col.beacon")}</th>
                <th scope="col">{t(lang, "fair.col.prize")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.seq} id={`record-${r.seq}`} className={r.date === day.date ? undefined : "fair-other-day"}>
                  <th scope="row">{r.seq}</th>
                  <td>{displayDateTime(r.time)}</td>
                  <td>
                    {t(lang, r.kind === "entry" ? "fair.kind.entry" : "fair.kind.draw")}
                    {r.date === day.date ? null : ` (${r.date})`}
                  </td>
                  <td>
                    <code>{r.id}</code>
                  </td>
                  <td>{r.round ? t(lang, `fair.round.${r.round}`) : ""}</td>
                  <td>{r.beacon_round ?? "—"}</td>
                  <td>
                    {r.prize ? prizeText(lang, r.prize.amount, r.prize.outcome) : ""}
                    {r.source === "house" ? <em> ({t(lang, "fair.house")})</em> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>{t(lang, "fair.day.none")}</p>
      )}
    </PublicShell>
  );
}

/** Earlier and later pages of a day's records (plain links: no script needed). */
function DayPager({ lang, date, page, pages }: { lang: Lang; date: string; page: number; pages: number }) {
  const to = (p: number) => `/fair-draws/${date}?page=${p}`;
  return (
    <nav className="fair-pager" aria-label={t(lang, "fair.day.pages")}>
      {page > 1 ? <a href={to(page - 1)}>← {t(lang, "fair.day.earlier")}</a> : null}
      <span>{t(lang, "fair.day.page", { page, pages })}</span>
      {page < pages ? <a href={to(page + 1)}>{t(lang, "fair.day.later")} →</a> : null}
    </nav>
  );
}
