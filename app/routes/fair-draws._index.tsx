import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageLanguage } from "~/http/language.server";
import { publicChrome } from "~/models/public-chrome.server";
import { publicLinks } from "~/components/public/links";
import { PublicShell } from "~/components/public/PublicShell";
import { drawsByReference, listDays, normaliseReference } from "~/models/fair-draw.server";
import { rupees, t } from "~/utils/i18n";
import { displayDateTime } from "~/utils/time";

export const handle = { scripts: false };
export const links = publicLinks;
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: t(data?.chrome.lang ?? "en", "fair.title") }];

/** GET /fair-draws: how a draw is made and checked, every day's commitment, and a visitor's own draw by its reference (?ref=). */
export async function loader({ request }: LoaderFunctionArgs) {
  const typed = new URL(request.url).searchParams.get("ref")?.slice(0, 40) ?? "";
  const ref = typed ? normaliseReference(typed) : null;
  return data({
    chrome: publicChrome(pageLanguage(request)),
    days: listDays(),
    search: typed ? { typed, valid: ref !== null, found: ref ? drawsByReference(ref) : [] } : null,
  });
}

const short = (hash: string | null) => (hash ? `${hash.slice(0, 16)}…` : "—");

export default function FairDraws() {
  const { chrome, days, search } = useLoaderData<typeof loader>();
  const { lang } = chrome;
  return (
    <PublicShell chrome={chrome}>
      <h1>{t(lang, "fair.title")}</h1>
      <p>{t(lang, "fair.intro")}</p>

      <section aria-labelledby="fair-find" className="fair-find">
        <h2 id="fair-find">{t(lang, "fair.find.title")}</h2>
        <form method="get" action="/fair-draws">
          <label htmlFor="ref">{t(lang, "fair.find.label")}</label>
          <p id="ref-hint" className="hint">
            {t(lang, "fair.find.hint")}
          </p>
          <input
            id="ref"
            name="ref"
            defaultValue={search?.typed ?? ""}
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            aria-describedby={search && !search.valid ? "ref-hint ref-error" : "ref-hint"}
            aria-invalid={search && !search.valid ? true : undefined}
          />
          {search && !search.valid ? (
            <p id="ref-error" className="error">
              {t(lang, "fair.find.invalid")}
            </p>
          ) : null}
          <button type="submit">{t(lang, "fair.find.button")}</button>
        </form>
        {search?.valid ? (
          search.found.length ? (
            <ul className="fair-found">
              {search.found.map(({ date, record }) => (
                <li key={`${date}-${record.seq}`}>
                  <a href={`/fair-draws/${date}#draw-${record.seq}`}>
                    {date} · #{record.seq} · {t(lang, `fair.round.${record.round}`)} ·{" "}
                    {rupees(lang, record.prize.amount)}
                  </a>{" "}
                  <span className="hint">{displayDateTime(record.time)}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p role="status">{t(lang, "fair.find.none")}</p>
          )
        ) : null}
      </section>

      <section aria-labelledby="fair-how">
        <h2 id="fair-how">{t(lang, "fair.how.title")}</h2>
        <ol>
          <li>{t(lang, "fair.how.1")}</li>
          <li>{t(lang, "fair.how.2")}</li>
          <li>{t(lang, "fair.how.3")}</li>
          <li>{t(lang, "fair.how.4")}</li>
        </ol>
        <h3>{t(lang, "fair.check.title")}</h3>
        <p>{t(lang, "fair.check.text")}</p>
        <pre className="fair-command">
          <code>node scripts/verify-draws.mjs https://…/api/v1/fair-draws/YYYY-MM-DD</code>
        </pre>
      </section>

      <section aria-labelledby="fair-days">
        <h2 id="fair-days">{t(lang, "fair.days.title")}</h2>
        <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="fair-days">
          <table className="fair-days">
            <thead>
              <tr>
                <th scope="col">{t(lang, "fair.col.date")}</th>
                <th scope="col">{t(lang, "fair.col.draws")}</th>
                <th scope="col">{t(lang, "fair.col.commitment")}</th>
                <th scope="col">{t(lang, "fair.col.head")}</th>
                <th scope="col">{t(lang, "fair.col.seed")}</th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.date}>
                  <th scope="row">
                    <a href={`/fair-draws/${d.date}`}>{d.date}</a>
                  </th>
                  <td>{d.draws}</td>
                  <td>
                    <code title={d.commitment}>{short(d.commitment)}</code>
                  </td>
                  <td>
                    <code title={d.head ?? ""}>{short(d.head)}</code>
                  </td>
                  <td>{d.seed ? <code title={d.seed}>{short(d.seed)}</code> : t(lang, "fair.seed.hidden")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </PublicShell>
  );
}
