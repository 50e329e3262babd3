/**
 * The rules of the settings texts' rich text (scheme, terms, privacy policy),
 * shared by the back office's editor in the browser and the server that
 * stores the texts (app/utils/rich-text.server.ts): the heading levels, the
 * link rule, and HTML escaping. No dependencies: browser-safe and cheap.
 */

/** The heading levels a text may use: the page's own title is the h1. */
export const HEADING_TAGS = ["h2", "h3", "h4"] as const;
export type HeadingTag = (typeof HEADING_TAGS)[number];

/** A heading tag brought into h2–h4 (h1 → h2, h5 and h6 → h4). */
export function headingTag(tag: string): HeadingTag {
  const level = Number(/^h([1-6])$/i.exec(tag)?.[1] ?? 2);
  return `h${Math.min(4, Math.max(2, level))}` as HeadingTag;
}

/** The schemes a link may use; anything else (javascript:, data:, vbscript:, file: …) is never linked. */
export const LINK_SCHEMES = ["http", "https", "mailto", "tel"] as const;

/**
 * The address a link may point to, or null. Control characters and
 * whitespace are dropped first (browsers ignore them inside a scheme, as in
 * "java\tscript:"); "www.example.com" gets https://; a path must start with
 * one "/" (never "//host", a protocol-relative address) or be "#anchor".
 */
export function safeLinkUrl(raw: string): string | null {
  // eslint-disable-next-line no-control-regex
  const url = raw.replace(/[\u0000-\u0020\u007f-\u009f]+/g, "");
  if (!url || url.length > 2000) return null;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme) {
    if (!(LINK_SCHEMES as readonly string[]).includes(scheme)) return null;
    if (scheme === "http" || scheme === "https") return isWebAddress(url) ? url : null;
    return url;
  }
  if (url.startsWith("#")) return url;
  if (url.startsWith("/")) return /^\/[/\\]/.test(url) ? null : url;
  if (/^www\.[^/\\?#]+\.[a-z]{2,}([/?#]|$)/i.test(url)) return `https://${url}`;
  return null;
}

function isWebAddress(url: string): boolean {
  if (!/^https?:\/\/[^/\\]/i.test(url)) return false;
  try {
    return new URL(url).hostname.length > 0;
  } catch {
    return false;
  }
}

/** The rel every stored link carries; http(s) links also open in a new tab (the texts are read in a modal). */
export const LINK_REL = "noopener noreferrer";

export const opensInNewTab = (href: string) => /^https?:/i.test(href);

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/**
 * Stored HTML laid out for reading in a textarea (the settings screen without
 * JavaScript): one block, list and item per line. Line breaks between blocks
 * mean nothing in HTML, so saving it unchanged stores the same HTML.
 */
export function htmlForEditing(html: string): string {
  return html
    .replace(/(<\/(p|h[2-4]|li|ul|ol)>)(?!\n)/g, "$1\n")
    .replace(/(<(ul|ol)[^>]*>)(?!\n)/g, "$1\n")
    .trim();
}
