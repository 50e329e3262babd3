/** The visitor's language (English or Nepali), remembered in a cookie. */
export type Language = "en" | "ne";

export const LANGUAGE_COOKIE = "lang";

export function getLanguage(request: Request): Language {
  const url = new URL(request.url);
  const fromQuery = url.searchParams.get("lang");
  if (fromQuery === "ne" || fromQuery === "en") return fromQuery;
  const cookie = request.headers.get("Cookie") ?? "";
  const m = /(?:^|;\s*)lang=(en|ne)(?:;|$)/.exec(cookie);
  return (m?.[1] as Language) ?? "en";
}

export function languageCookie(lang: Language): string {
  return `${LANGUAGE_COOKIE}=${lang}; Path=/; Max-Age=31536000; SameSite=Lax`;
}
