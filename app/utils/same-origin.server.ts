/**
 * The one cross-site request rule (CSRF), applied by server.js to every
 * state-changing request before any route runs, whatever the URL's query.
 * It follows the browsers' own signals, as Go's CrossOriginProtection does:
 * - Sec-Fetch-Site present: only "same-origin" and "none" (typed by the user) pass;
 * - otherwise Origin present: it must name this host ("null" never does);
 * - neither: not a browser (curl, the API's clients), so no cookie was sent on a visitor's behalf.
 * Calls carrying a bearer token are not cookie-authenticated and are not checked.
 */
const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

type HeaderBag = { get(name: string): string | null };

export function isCrossSiteRequest(method: string, headers: HeaderBag, host: string | null): boolean {
  if (!UNSAFE.has(method.toUpperCase())) return false;
  if (/^Bearer\s/i.test(headers.get("authorization") ?? "")) return false;
  const site = headers.get("sec-fetch-site");
  if (site) return site !== "same-origin" && site !== "none";
  const origin = headers.get("origin");
  if (origin === null) return false;
  if (origin === "null" || !host) return true;
  try {
    return new URL(origin).host.toLowerCase() !== host.toLowerCase();
  } catch {
    return true;
  }
}

export const CROSS_SITE_MESSAGE =
  "This form was sent from another site, so it was not accepted. Go back, reload the page and send it again.";
