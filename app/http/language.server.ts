/** The visitor's language (English or Nepali), remembered in a cookie. */
import { secureCookies } from "~/utils/config.server";
import { cookieName } from "./cookie-name.server";

export type Language = "en" | "ne";

/** `lang` over http, `__Host-lang` over HTTPS (Secure, Path=/, no Domain). */
export const LANGUAGE_COOKIE = cookieName("lang");

export function getLanguage(request: Request): Language {
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

export function languageCookie(lang: Language): string {
  return `${LANGUAGE_COOKIE}=${lang}; Path=/; Max-Age=31536000; SameSite=Lax${secureCookies ? "; Secure" : ""}`;
}
