/**
 * The one check of every redirect target taken from a request (redirectTo,
 * the language switch): only a path on this site. The target is read the way
 * a browser would read it (the URL parser drops tabs and newlines, turns "\"
 * into "/" and decodes nothing it should not), after removing control
 * characters; anything that would leave this origin gives the fallback. The
 * answer is the parsed path, percent-encoded, so Nepali text or a stray
 * newline make a clean Location header rather than an error.
 */
const BASE = "http://campaign.invalid";

export function safeRedirect(to: unknown, fallback = "/"): string {
  if (typeof to !== "string") return fallback;
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const cleaned = to.replace(/[\u0000-\u001F\u007F]/g, "").trim();
  if (!cleaned.startsWith("/")) return fallback;
  let url: URL;
  try {
    url = new URL(cleaned, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  // A path that starts with two slashes would be read as another host.
  const path = url.pathname.replace(/^\/{2,}/, "/");
  return `${path}${url.search}${url.hash}`;
}
