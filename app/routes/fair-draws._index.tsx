import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageLanguage } from "~/http/language.server";
import { publicChrome } from "~/models/public-chrome.server";
import { publicLinks } from "~/components/public/links";
import { PublicShell } from "~/components/public/PublicShell";
import {
  announcements,
  listDays,
  nearReference,
  normaliseReference,
  ownDraws,
  type OwnDraw,
} from "~/models/fair-draw.server";
import { prizeText } from "~/components/public/fair-prize";
import { t, type Lang } from "~/utils/i18n";
import { displayDateTime, kathmanduDate } from "~/utils/time";

export const handle = { scripts: false };
export const links = publicLinks;
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: t(data?.chrome.lang ?? "en", "fair.title") }];

/**
 * GET /fair-draws: what a check proves, a visitor's own draw by its public id (?ref=, with a
 * "did you mean" for a near miss), how a draw is made, the observers' SMS, and every day from today
 * back (tomorrow's committed terms above them).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const typed = new URL(request.url).searchParams.get("ref")?.slice(0, 40) ?? "";
  const ref = typed ? normaliseReference(typed) : null;
  const found = ref ? ownDraws(ref) : [];
  const days = listDays();
  const today = kathmanduDate();
  return data(
    {
      chrome: publicChrome(pageLanguage(request)),
      days: days.filter((d) => d.date <= today),
      next: days.find((d) => d.date > today) ?? null,
      sends: announcements(),
      search: typed
        ? { typed, valid: ref !== null, found, didYouMean: ref && !found.length ? nearReference(ref) : null }
        : null,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

const short = (hash: string | null) => (hash ? `${hash.slice(0, 16)}…` : "—");

function Found({ lang, draw }: { lang: Lang; draw: OwnDraw }) {
  return (
    <li>
      <strong>
        {draw.id} · {t(lang, `fair.round.${draw.round}`)}
      </strong>
      <br />
      {draw.beaconRound !== null
        ? t(lang, "fair.found.fixed", { time: displayDateTime(draw.fixedAt), round: draw.beaconRound })
        : displayDateTime(draw.fixedAt)}{" "}
      {draw.drawn
        ? t(lang, "fair.found.drawn", {
            time: displayDateTime(draw.drawn.at),
            prize: prizeText(lang, draw.drawn.amount, draw.drawn.outcome),
          })
        : t(lang, "fair.found.waiting")}
      {draw.drawn?.house ? <em> ({t(lang, "fair.house")})</em> : null}
      <br />
      <a href={`/fair-draws/${draw.date}?at=${draw.drawn?.seq ?? draw.seq}#record-${draw.drawn?.seq ?? draw.seq}`}>
        {t(lang, "fair.found.check")}
      </a>
    </li>
  );
}

export default function FairDraws() {
  const { chrome, days, next, sends, search } = useLoaderData<typeof loader>();
  const { lang } = chrome;
  const invalid = search && !search.valid;
  return (
    <PublicShell chrome={chrome}>
      <h1>{t(lang, "fair.title")}</h1>
      <p>{t(lang, "fair.intro")}</p>
      <p className="fair-proves">
        <strong>{t(lang, "fair.proves")}</strong>
      </p>

      <section aria-labelledby="fair-find" className="fair-find">
        <h2 id="fair-find">{t(lang, "fair.find.title")}</h2>
        <form method="get" action="/fair-draws" className="fair-find-form">
          <div className={invalid ? "field invalid" : "field"}>
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
              maxLength={40}
              aria-describedby={invalid ? "ref-hint ref-error" : "ref-hint"}
              aria-invalid={invalid ? true : undefined}
            />
            {invalid ? (
              <p id="ref-error" className="field-error">
                {t(lang, "fair.find.invalid")}
              </p>
            ) : null}
          </div>
          <button type="submit" className="primary">
            {t(lang, "fair.find.button")}
          </button>
        </form>
        {search?.valid ? (
          search.found.length ? (
            <ul className="fair-found">
              {search.found.map((draw) => (
                <Found key={draw.seq} lang={lang} draw={draw} />
              ))}
            </ul>
          ) : (
            <p role="status">
              {t(lang, "fair.find.none")}{" "}
              {search.didYouMean ? (
                <a href={`/fair-draws?ref=${search.didYouMean}`}>
                  {t(lang, "fair.find.didYouMean", { ref: search.didYouMean })}
                </a>
              ) : null}
            </p>
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
          <code>
            node scripts/verify-draws.mjs https://…/api/v1/fair-draws{"\n"}python3 scripts/verify_draws.py
            https://…/api/v1/fair-draws
          </code>
        </pre>
        <p>
          <a href="/api/v1/fair-draws" download="campaign.json">
            {t(lang, "fair.download")}
          </a>
        </p>
      </section>

      <section aria-labelledby="fair-days">
        <h2 id="fair-days">{t(lang, "fair.days.title")}</h2>
        {next ? <p>{t(lang, "fair.days.next", { hash: short(next.terms_hash) })}</p> : null}
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t(lang, "fair.days.title")}>
          <table className="fair-days">
            <thead>
              <tr>
                <th scope="col">{t(lang, "fair.col.date")}</th>
                <th scope="col">{t(lang, "fair.col.entries")}</th>
                <th scope="col">{t(lang, "fair.col.draws")}</th>
                <th scope="col">{t(lang, "fair.col.house")}</th>
                <th scope="col">{t(lang, "fair.col.terms")}</th>
                <th scope="col">{t(lang, "fair.col.head")}</th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.date}>
                  <th scope="row">
                    <a href={`/fair-draws/${d.date}`}>{d.date}</a>
                  </th>
                  <td>{d.entries}</td>
                  <td>{d.draws}</td>
                  <td>{d.house}</td>
                  <td>
                    <code title={d.terms_hash}>{short(d.terms_hash)}</code>
                  </td>
                  <td>
                    <code title={d.head ?? ""}>{short(d.head)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="fair-sends">
        <h2 id="fair-sends">{t(lang, "fair.sends.title")}</h2>
        <p>{t(lang, "fair.sends.text")}</p>
        {sends.length ? (
          <div className="table-scroll" tabIndex={0} role="region" aria-label={t(lang, "fair.sends.title")}>
            <table className="fair-days">
              <thead>
                <tr>
                  <th scope="col">{t(lang, "fair.col.date")}</th>
                  <th scope="col">{t(lang, "fair.sends.col.sent")}</th>
                  <th scope="col">{t(lang, "fair.sends.col.phones")}</th>
                  <th scope="col">{t(lang, "fair.col.head")}</th>
                </tr>
              </thead>
              <tbody>
                {sends.map((s) => (
                  <tr key={s.date}>
                    <th scope="row">{s.date}</th>
                    <td>{displayDateTime(s.sent_at)}</td>
                    <td>{s.phones}</td>
                    <td>
                      <code title={s.head}>{short(s.head)}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p>{t(lang, "fair.sends.none")}</p>
        )}
      </section>
    </PublicShell>
  );
}
