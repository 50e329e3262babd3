/**
 * The share link's cookie: opening /r/{code} remembers the code (and the link's utm_source) in
 * this browser for a week, and a pre-registration or test ride made in it then names that
 * customer as its referrer (app/utils/share-link.server.ts, docs/decisions/0016-broadcasts-and-referrers.md).
 */
import { secureCookies } from "~/utils/config.server";
import { cleanSource, SHARE_CODE, type Referral } from "~/utils/share-link.server";
import { cookieName } from "./cookie-name.server";

export const REFERRAL_COOKIE = cookieName("ref");
export const REFERRAL_MAX_AGE = 7 * 24 * 3600;

export function referralCookie(referral: Referral): string {
  const value = `${referral.code}~${cleanSource(referral.source)}`;
  return `${REFERRAL_COOKIE}=${value}; Path=/; Max-Age=${REFERRAL_MAX_AGE}; HttpOnly; SameSite=Lax${secureCookies ? "; Secure" : ""}`;
}

/** The referral a visitor came with (the share link's cookie), or null. */
export function referralOf(request: Request): Referral | null {
  const cookie = request.headers.get("Cookie") ?? "";
  for (const part of cookie.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== REFERRAL_COOKIE) continue;
    const [code, source] = part
      .slice(eq + 1)
      .trim()
      .split("~");
    if (SHARE_CODE.test(code)) return { code, source: cleanSource(source) };
  }
  return null;
}
