/**
 * A registered customer's share link: /r/{code}, where the code is 80 random
 * bits kept on their registration (never their id, slug or phone). Opening it
 * sets a small cookie naming the code (and the link's utm_source) for a week
 * (app/http/referral.server.ts) and goes to the landing page; a test ride booked
 * or a pre-registration made in that browser then records the customer as its
 * referrer (docs/decisions/0016-broadcasts-and-referrers.md).
 */
export const SHARE_CODE = /^[0-9a-f]{20}$/;
/** The utm_source of a visit through a share link, unless the link says otherwise. */
export const REFERRAL_SOURCE = "referral";
const SOURCE = /^[A-Za-z0-9_.-]{1,40}$/;

export type Referral = { code: string; source: string };

/** The site's address in messages (PUBLIC_URL, e.g. https://thrill.example.com); the local server's otherwise. */
export function publicBaseUrl(): string {
  const configured = process.env.PUBLIC_URL?.trim().replace(/\/+$/, "");
  return configured || `http://localhost:${process.env.PORT ?? 3000}`;
}

/** The share link of a code. */
export const shareLink = (code: string) => `${publicBaseUrl()}/r/${code}`;

/** A utm_source that may be kept (letters, digits, - _ .), else the default. */
export const cleanSource = (value: string | null | undefined) =>
  value && SOURCE.test(value) ? value : REFERRAL_SOURCE;
