/**
 * The rendered HTML of the public pages every visitor sees alike (the landing
 * page, showrooms, scheme, terms, privacy, winners), kept ready so a TV spot's
 * thousands of phones cost a lookup, not a render. server.js asks for a page
 * here before rendering and stores what it rendered.
 *
 * - Only anonymous GET/HEAD requests: any cookie but the language one (a staff
 *   session, a toast, an entry's cookie) goes past the cache, as does any query
 *   key a page does not read.
 * - A page is kept while the public data's version (app/models/public-cache.server.ts,
 *   moved by triggers on every change) and the Kathmandu day are the same, and
 *   for at most 30 seconds; at most 200 pages (least recently used go first).
 * - Stored compressed (brotli and gzip) and plain, so a hit is a copy to the socket.
 * - The pre-registration form is the same for every visitor but for its form
 *   token (the idempotency key of one submission): it is kept with the token it
 *   was rendered with, which each hit swaps for a new one (in the field and in
 *   the page's data), then compresses the page for that visitor alone.
 * - The page's inline scripts carry the nonce it was rendered with; a hit sends
 *   that same nonce in its Content-Security-Policy (decision 10).
 */
import type { ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { publicVersion } from "~/models/public-cache.server";
import { compressWhole, pickEncoding, type Encoding } from "./compression.server";
import { newFormToken } from "~/utils/crypto.server";
import { kathmanduDate } from "~/utils/time";

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/**
 * The public pages kept, the query keys each may carry, and whether it holds a
 * form token (swapped on each hit). A page that holds anything else of one
 * visitor (an entry, a change of one) is never here.
 */
const PAGES: Record<string, { query: readonly string[]; formToken?: true }> = {
  "/": { query: ["utm_source"] },
  "/showrooms": { query: ["state", "district"] },
  "/scheme": { query: [] },
  "/terms": { query: [] },
  "/privacy-policy": { query: [] },
  "/winner-list": { query: [] },
  "/thankyou-for-test-ride-booking": { query: ["type"] },
  "/enquiry": { query: [], formToken: true },
};

/** The form token as a page holds it: the hidden field's value (newFormToken: 18 random bytes, base64url). */
const FORM_TOKEN_FIELD = /<input\b[^>]*\bname="form_token"[^>]*\bvalue="([A-Za-z0-9_-]{24})"/;

const LANGUAGE_COOKIES = new Set(["lang", "__Host-lang"]);
/** Cookies no kept page reads: the journey cookie (app/http/journey.server.ts) goes past nothing. */
const IGNORED_COOKIES = new Set(["journey", "__Host-journey"]);
const TTL_MS = 30_000;
const MAX_PAGES = 200;
const MAX_BYTES = 256 * 1024;

export type CachedPage = {
  version: number;
  day: string;
  expires: number;
  status: number;
  headers: [string, string][];
  nonce: string;
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  /** A form page: its text around the token it was rendered with, joined by a new token on each hit. */
  aroundToken: string[] | null;
};

const pages = new Map<string, CachedPage>();

/** The cache key of a request, or null when its page must be rendered for it alone. */
export function pageCacheKey(method: string, url: string, cookieHeader: string | undefined): string | null {
  if (method !== "GET" && method !== "HEAD") return null;
  const parsed = new URL(url, "http://cache.invalid");
  const allowed = PAGES[parsed.pathname]?.query;
  if (!allowed) return null;
  const query: [string, string][] = [];
  for (const [k, v] of parsed.searchParams) {
    if (!allowed.includes(k)) return null;
    query.push([k, v]);
  }
  let lang = "";
  for (const part of (cookieHeader ?? "").split(";")) {
    const eq = part.indexOf("=");
    const name = part.slice(0, eq < 0 ? undefined : eq).trim();
    if (!name || IGNORED_COOKIES.has(name)) continue;
    if (!LANGUAGE_COOKIES.has(name)) return null;
    lang = part.slice(eq + 1).trim();
  }
  query.sort(([a], [b]) => a.localeCompare(b));
  return `${lang}|${parsed.pathname}?${new URLSearchParams(query)}`;
}

/** A kept page that is still current, or null. */
export function cachedPage(key: string): CachedPage | null {
  const page = pages.get(key);
  if (!page) return null;
  if (page.expires <= Date.now() || page.version !== publicVersion() || page.day !== kathmanduDate()) {
    pages.delete(key);
    return null;
  }
  // Most recently used last.
  pages.delete(key);
  pages.set(key, page);
  return page;
}

const pathOfKey = (key: string) => key.slice(key.indexOf("|") + 1, key.indexOf("?"));

/**
 * Whether a rendered answer may be kept for everyone: a 200 HTML page that sets no cookie and is not the
 * visitor's own (private or no-store), or a form page whose only own part is its token (private, no-cache).
 */
export function isShareable(response: Response, key?: string): boolean {
  const cacheControl = response.headers.get("Cache-Control") ?? "";
  const own = key && PAGES[pathOfKey(key)]?.formToken ? /no-store/i : /no-store|private/i;
  return (
    response.status === 200 &&
    /^text\/html\b/i.test(response.headers.get("Content-Type") ?? "") &&
    !response.headers.has("Set-Cookie") &&
    !own.test(cacheControl)
  );
}

/** Keeps a rendered page (read whole: public pages are small), compressed once. */
export async function keepPage(key: string, response: Response, nonce: string): Promise<CachedPage | null> {
  const identity = Buffer.from(await response.arrayBuffer());
  let aroundToken: string[] | null = null;
  if (PAGES[pathOfKey(key)]?.formToken) {
    const text = identity.toString("utf8");
    const token = FORM_TOKEN_FIELD.exec(text)?.[1];
    aroundToken = token ? text.split(token) : null;
  }
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => {
    if (!/^(content-length|content-encoding|transfer-encoding|connection)$/i.test(name)) headers.push([name, value]);
  });
  const page: CachedPage = {
    version: publicVersion(),
    day: kathmanduDate(),
    expires: Date.now() + TTL_MS,
    status: response.status,
    headers,
    nonce,
    identity,
    gzip: await gzip(identity, { level: 9 }),
    br: await brotli(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }),
    aroundToken,
  };
  // A form page without its token field is sent as it is and not kept.
  if (identity.length > MAX_BYTES || (PAGES[pathOfKey(key)]?.formToken && !aroundToken)) return page;
  pages.set(key, page);
  while (pages.size > MAX_PAGES) pages.delete(pages.keys().next().value!);
  return page;
}

/**
 * Writes a kept page to the response. `setNonce` hands the page's nonce to the
 * security headers, which are written when the headers go out.
 */
export function sendPage(
  res: ServerResponse,
  page: CachedPage,
  {
    method,
    acceptEncoding,
    setNonce,
  }: { method: string; acceptEncoding: string | undefined; setNonce: (nonce: string) => void },
) {
  setNonce(page.nonce);
  const encoding = pickEncoding(acceptEncoding);
  const body = page.aroundToken
    ? withNewToken(page.aroundToken, encoding)
    : encoding === "br"
      ? page.br
      : encoding === "gzip"
        ? page.gzip
        : page.identity;
  res.statusCode = page.status;
  for (const [name, value] of page.headers) res.setHeader(name, value);
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Vary", "Accept-Encoding, Cookie");
  res.setHeader("Content-Length", String(body.length));
  res.end(method === "HEAD" ? undefined : body);
}

/** A kept form page with a new form token, compressed for this visitor. */
function withNewToken(aroundToken: string[], encoding: Encoding): Buffer {
  return compressWhole(Buffer.from(aroundToken.join(newFormToken())), encoding);
}

/** Tests: start empty. */
export function clearPageCache() {
  pages.clear();
}
