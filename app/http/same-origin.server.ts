/**
 * The one cross-site request rule (CSRF), applied by server.js to every
 * state-changing request before any route runs, whatever the URL's query.
 * It follows the browsers' own signals, as Go's CrossOriginProtection does:
 * - Sec-Fetch-Site present: only "same-origin" and "none" (typed by the user) pass;
 * - otherwise Origin present: it must name this host ("null" never does);
 * - neither, with the back-office session's cookie: a Referer naming this host must vouch for it
 *   (an old browser, or a privacy tool that strips Origin);
 * - neither and no session cookie: not a browser acting for staff (curl, the API's clients, which may
 *   keep the public entries' cookie as any cookie jar does).
 * Calls carrying a bearer token are not cookie-authenticated and are not checked.
 */
import { cookieName } from "./cookie-name.server";

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The cookie that signs staff in: the back-office session (both its names, over HTTPS and plain http). */
const CREDENTIALS = new Set([cookieName("session", "__session", true), cookieName("session", "__session", false)]);

type HeaderBag = { get(name: string): string | null };

const sameHost = (address: string, host: string) => {
  try {
    return new URL(address).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false;
  }
};

const carriesCredential = (cookie: string | null) =>
  !!cookie && cookie.split(";").some((pair) => CREDENTIALS.has(pair.split("=")[0].trim()));

export function isCrossSiteRequest(method: string, headers: HeaderBag, host: string | null): boolean {
  if (!UNSAFE.has(method.toUpperCase())) return false;
  if (/^Bearer\s/i.test(headers.get("authorization") ?? "")) return false;
  const site = headers.get("sec-fetch-site");
  if (site) return site !== "same-origin" && site !== "none";
  const origin = headers.get("origin");
  if (origin === null) {
    if (!carriesCredential(headers.get("cookie"))) return false;
    const referer = headers.get("referer");
    return !referer || !host || !sameHost(referer, host);
  }
  if (origin === "null" || !host) return true;
  return !sameHost(origin, host);
}

export const CROSS_SITE_MESSAGE =
  "This form was sent from another site, so it was not accepted. Go back, reload the page and send it again.";
