/** The visitor's language (English or Nepali), remembered in a cookie. */
import { secureCookies } from "~/utils/config.server";
import type { Lang } from "~/utils/i18n";
import { cookieName } from "./cookie-name.server";

/** `lang` over http, `__Host-lang` over HTTPS (Secure, Path=/, no Domain). */
export const LANGUAGE_COOKIE = cookieName("lang");

export function getLanguage(request: Request): Lang {
  const url = new URL(request.url);
  const fromQuery = url.searchParams.get("lang");
  if (fromQuery === "ne" || fromQuery === "en") return fromQuery;
  const cookie = request.headers.get("Cookie") ?? "";
  for (const part of cookie.split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === LANGUAGE_COOKIE && (value === "en" || value === "ne")) return value;
  }
  return "en";
}

export function languageCookie(lang: Lang): string {
  return `${LANGUAGE_COOKIE}=${lang}; Path=/; Max-Age=31536000; SameSite=Lax${secureCookies ? "; Secure" : ""}`;
}

/** A public page's language and its address without the ?lang= switch, for the language links to come back to. */
export function pageLanguage(request: Request): { lang: Lang; path: string } {
  const url = new URL(request.url);
  const params = new URLSearchParams(url.search);
  params.delete("lang");
  const search = params.toString();
  return { lang: getLanguage(request), path: url.pathname + (search ? `?${search}` : "") };
}
