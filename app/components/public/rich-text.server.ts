/** Settings texts (scheme, terms, policy) are HTML written in the back office: sanitised before they reach a page. */
import sanitizeHtml from "sanitize-html";
import { getSetting } from "~/models/settings.server";
import type { Lang } from "~/utils/i18n";

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, "img", "h1", "h2", "u", "s", "span"],
  allowedAttributes: {
    a: ["href", "name", "target", "rel"],
    img: ["src", "alt", "width", "height"],
    "*": ["dir", "lang"],
  },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowProtocolRelative: false,
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: attribs.target === "_blank" ? { ...attribs, rel: "noopener noreferrer" } : attribs,
    }),
  },
};

export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

export type TextKey = "scheme" | "terms" | "policy";

/** The Nepali text when the visitor reads Nepali and one is set, else the English one; sanitised. */
export function settingsText(key: TextKey, lang: Lang): string {
  const nepali = lang === "ne" ? getSetting<string>(`${key}_ne`, "") : "";
  const text = typeof nepali === "string" && nepali.trim() ? nepali : getSetting<string>(key, "");
  return typeof text === "string" ? sanitizeRichText(text) : "";
}
