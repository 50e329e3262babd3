import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageLanguage } from "~/http/language.server";
import { publicChrome } from "~/models/public-chrome.server";
import { publicLinks } from "~/components/public/links";
import { settingsText } from "~/models/settings.server";
import { TextModal } from "~/components/public/TextModal";
import { t } from "~/utils/i18n";

export const handle = { scripts: false };
export const links = publicLinks;
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: t(data?.chrome.lang ?? "en", "nav.privacy") }];

export async function loader({ request }: LoaderFunctionArgs) {
  const chrome = publicChrome(pageLanguage(request));
  return data({ chrome, html: settingsText("policy", chrome.lang) });
}

export default function PrivacyPolicy() {
  const { chrome, html } = useLoaderData<typeof loader>();
  return <TextModal chrome={chrome} titleKey="nav.privacy" html={html} />;
}
