/**
 * The pre-registrations this browser owns: it created them, or proved them with
 * a code sent to their phone (a verification code, or the code of "continue").
 * A signed cookie (HMAC with the session secrets; httpOnly, SameSite=Lax, Secure
 * and `__Host-` over HTTPS) holding the few newest slugs. Pages and the API
 * reached by a slug show the entry's personal details (name, address,
 * citizenship number) only to an owner; anyone else sees the masked phone and
 * the prize. A slug in the cookie is the owner's own, so the cookie tells its
 * holder nothing new.
 */
import { createCookie, redirect } from "@remix-run/node";
import { secureCookies, sessionSecrets } from "~/utils/config.server";
import { cookieName } from "./cookie-name.server";
import { journeyHeader } from "./journey.server";

/** How many entries one browser remembers (a family sharing a phone; a few tries). */
export const OWNED_MAX = 5;
const SLUG = /^[A-Za-z0-9_-]{8,64}$/;

export const ownedEntriesCookie = createCookie(cookieName("entries"), {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure: secureCookies,
  secrets: sessionSecrets(),
  // The campaign's length, about.
  maxAge: 60 * 60 * 24 * 180,
});

/** The slugs this browser owns (newest first); none when the cookie is missing, old or forged. */
export async function ownedSlugs(request: Request): Promise<string[]> {
  const value: unknown = await ownedEntriesCookie.parse(request.headers.get("Cookie"));
  if (!Array.isArray(value)) return [];
  return value.filter((s): s is string => typeof s === "string" && SLUG.test(s)).slice(0, OWNED_MAX);
}

/** Whether this browser created or proved the entry. */
export async function ownsEntry(request: Request, slug: string): Promise<boolean> {
  return (await ownedSlugs(request)).includes(slug);
}

/**
 * The headers that add an entry to this browser's (the oldest drops out past OWNED_MAX) and keep its
 * journey going (app/http/journey.server.ts: a busy server still serves its code check and draw).
 */
export async function owningHeaders(request: Request, slug: string): Promise<Headers> {
  const slugs = [slug, ...(await ownedSlugs(request)).filter((s) => s !== slug)].slice(0, OWNED_MAX);
  const headers = new Headers();
  headers.append("Set-Cookie", await ownedEntriesCookie.serialize(slugs));
  headers.append("Set-Cookie", await journeyHeader());
  return headers;
}

/** A redirect that also records the entry as this browser's. */
export async function redirectOwning(request: Request, slug: string, to: string): Promise<Response> {
  return redirect(to, { headers: await owningHeaders(request, slug) });
}
