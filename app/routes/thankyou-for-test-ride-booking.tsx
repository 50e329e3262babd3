import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { publicChrome } from "~/components/public/chrome.server";
import { publicLinks } from "~/components/public/links";
import { ModalPage } from "~/components/public/PublicShell";
import { t } from "~/utils/i18n";

export const handle = { scripts: false };
export const links = publicLinks;
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: t(data?.chrome.lang ?? "en", "thanks.title") },
];

export async function loader({ request }: LoaderFunctionArgs) {
  return data({ chrome: publicChrome(request) });
}

export default function ThankYou() {
  const { chrome } = useLoaderData<typeof loader>();
  const { lang } = chrome;
  return (
    <ModalPage chrome={chrome} title={t(lang, "thanks.title")}>
      <div className="thanks">
        <p>{t(lang, "thanks.text")}</p>
        <p>
          <a href={chrome.website} target="_blank" rel="noopener noreferrer">
            {t(lang, "thanks.website")}
          </a>
        </p>
        <div className="actions" style={{ justifyContent: "center" }}>
          <a href="/" className="button primary" data-close="">
            {t(lang, "thanks.back")}
          </a>
        </div>
      </div>
    </ModalPage>
  );
}
