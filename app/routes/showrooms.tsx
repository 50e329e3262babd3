import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageLanguage } from "~/http/language.server";
import { publicChrome } from "~/models/public-chrome.server";
import { publicLinks } from "~/components/public/links";
import { ModalPage } from "~/components/public/PublicShell";
import { findShowrooms } from "~/models/branch.server";
import { t, tn } from "~/utils/i18n";

export const handle = { scripts: false };
export const links = publicLinks;
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: t(data?.chrome.lang ?? "en", "rooms.title") }];

/** Nearby Showrooms: ?state= (Zone) then ?district= (Location). */
export async function loader({ request }: LoaderFunctionArgs) {
  const q = new URL(request.url).searchParams;
  return data({
    chrome: publicChrome(pageLanguage(request)),
    ...findShowrooms({ state: q.get("state"), district: q.get("district") }),
  });
}

export default function Showrooms() {
  const { chrome, states, districts, state, district, showrooms } = useLoaderData<typeof loader>();
  const { lang } = chrome;
  return (
    <ModalPage chrome={chrome} title={t(lang, "rooms.title")} size="wide">
      <form method="get" action="/showrooms" className="filters" role="search">
        <div className="field">
          <label htmlFor="f-state">{t(lang, "rooms.zone")}</label>
          <select id="f-state" name="state" defaultValue={state} data-autosubmit="" key={`s-${state}`}>
            <option value="">{t(lang, "common.all")}</option>
            {states.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-district">{t(lang, "rooms.location")}</label>
          <select
            id="f-district"
            name="district"
            defaultValue={district}
            data-autosubmit=""
            key={`d-${state}-${district}`}
          >
            <option value="">{t(lang, "common.all")}</option>
            {districts.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">{t(lang, "rooms.filter")}</button>
      </form>
      <p className="muted" role="status">
        {tn(lang, "rooms.count", showrooms.length)}
      </p>
      {showrooms.length ? (
        <ul className="rooms">
          {showrooms.map((b) => (
            <li key={b.id} className="room">
              <h2>{b.title}</h2>
              <p>
                {b.district}, {b.city}
              </p>
              {b.phones.length ? (
                <p className="phones">
                  {b.phones.map((p) => (
                    <a key={p.href + p.label} href={p.href}>
                      {p.label}
                    </a>
                  ))}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p>{t(lang, "rooms.none")}</p>
      )}
    </ModalPage>
  );
}
