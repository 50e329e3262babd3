import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageLanguage } from "~/http/language.server";
import { publicChrome } from "~/models/public-chrome.server";
import { publicLinks } from "~/components/public/links";
import { PublicShell } from "~/components/public/PublicShell";
import { FAIR_DRAWS_SCRIPT } from "~/components/public/scripts";
import { publishedDay } from "~/models/fair-draw.server";
import { rupees, t } from "~/utils/i18n";
import { displayDateTime } from "~/utils/time";

export const handle = { scripts: false };
export const links = publicLinks;
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: t(data?.chrome.lang ?? "en", "fair.day.title", { date: data?.day.date ?? "" }) },
];

/** GET /fair-draws/{date}: the day's commitment, chain head, every draw in chain order, the seed once the day is over, and the in-browser check. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const date = params.date ?? "";
  const day = /^\d{4}-\d{2}-\d{2}$/.test(date) ? publishedDay(date) : null;
  if (!day) throw new Response("Not Found", { status: 404 });
  return data({ chrome: publicChrome(pageLanguage(request)), day });
}

export default function FairDrawDay() {
  const { chrome, day } = useLoaderData<typeof loader>();
  const { lang } = chrome;
  const json = `/api/v1/fair-draws/${day.date}`;
  return (
    <PublicShell chrome={chrome} scripts={day.over ? [FAIR_DRAWS_SCRIPT] : []}>
      <p>
        <a href="/fair-draws">← {t(lang, "fair.day.back")}</a>
      </p>
      <h1>{t(lang, "fair.day.title", { date: day.date })}</h1>
      <dl className="fair-day">
        <dt>{t(lang, "fair.col.commitment")}</dt>
        <dd>
          <code>{day.commitment}</code>
        </dd>
        <dt>{t(lang, "fair.col.seed")}</dt>
        <dd>{day.seed ? <code>{day.seed}</code> : t(lang, "fair.seed.hidden")}</dd>
        <dt>{t(lang, "fair.col.head")}</dt>
        <dd>
          <code>{day.head ?? "—"}</code>
        </dd>
        <dt>{t(lang, "fair.col.draws")}</dt>
        <dd>{day.records.length}</dd>
      </dl>
      <p>
        <a href={json}>{t(lang, "fair.day.json")}</a>
      </p>
      {day.over ? (
        <div
          data-fair-check=""
          hidden
          data-url={json}
          data-checking={t(lang, "fair.day.checking")}
          data-ok={t(lang, "fair.day.ok")}
          data-bad={t(lang, "fair.day.bad")}
        >
          <button type="button">{t(lang, "fair.day.check")}</button>
          <p role="status" aria-live="polite" />
        </div>
      ) : (
        <p>{t(lang, "fair.day.notOver")}</p>
      )}
      <p>{t(lang, "fair.check.text")}</p>
      <pre className="fair-command">
        <code>node scripts/verify-draws.mjs {json}</code>
      </pre>
      {day.records.length ? (
        <div
          className="table-scroll"
          tabIndex={0}
          role="region"
          aria-label={t(lang, "fair.day.title", { date: day.date })}
        >
          <table className="fair-records">
            <thead>
              <tr>
                <th scope="col">{t(lang, "fair.col.seq")}</th>
                <th scope="col">{t(lang, "fair.col.time")}</th>
                <th scope="col">{t(lang, "fair.col.round")}</th>
                <th scope="col">{t(lang, "fair.col.ref")}</th>
                <th scope="col">{t(lang, "fair.col.prize")}</th>
              </tr>
            </thead>
            <tbody>
              {day.records.map((r) => (
                <tr key={r.seq} id={`draw-${r.seq}`}>
                  <th scope="row">{r.seq}</th>
                  <td>{displayDateTime(r.time)}</td>
                  <td>{t(lang, `fair.round.${r.round}`)}</td>
                  <td>
                    <code>{r.ref}</code>
                  </td>
                  <td>{rupees(lang, r.prize.amount)}</td>
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
