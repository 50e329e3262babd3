import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { readForm } from "~/http/body.server";
import { isLang } from "~/utils/i18n";
import { languageCookie } from "~/http/language.server";
import { safeRedirect } from "~/utils/safe-redirect";

function switchTo(lang: unknown, to: unknown) {
  return redirect(safeRedirect(to, "/"), {
    headers: { "Set-Cookie": languageCookie(isLang(lang) ? lang : "en"), "Cache-Control": "no-store" },
  });
}

/** GET /language?lang=ne&redirectTo=/winner-list: remembers the language (cookie) and returns to the page. */
export async function loader({ request }: LoaderFunctionArgs) {
  const q = new URL(request.url).searchParams;
  return switchTo(q.get("lang"), q.get("redirectTo"));
}

/** POST lang, redirectTo: the same for a form. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  return switchTo(form.get("lang"), form.get("redirectTo"));
}
