/**
 * Cookie names: over HTTPS (Secure cookies: production unless COOKIE_SECURE=false) every
 * cookie of the site carries the `__Host-` prefix, which browsers accept only with Secure,
 * Path=/ and no Domain, so a subdomain or a plain-http page cannot plant or shadow it.
 * Over plain http (development, tests) browsers refuse Secure cookies, so the plain name.
 */
import { secureCookies } from "~/utils/config.server";

export const cookieName = (name: string, plain: string = name, secure: boolean = secureCookies) =>
  secure ? `__Host-${name}` : plain;

/** The back-office session's cookie (app/http/session.server.ts), named here so the admission control reads it too. */
export const SESSION_COOKIE = cookieName("session", "__session");
