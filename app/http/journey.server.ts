/**
 * The journey cookie: a visitor who has reached a step with a code (an entry saved and its code sent, a
 * "continue" code sent, a code proved) carries it for JOURNEY_SECONDS, so a busy server still serves the
 * rest of their journey (the code check, the draw) while it turns new visitors away
 * (app/http/admission.server.ts). Signed with the session secrets like every cookie of the site, its value
 * holds when it ends, so a copied cookie stops counting then whatever its holder's browser does.
 */
import { createCookie } from "@remix-run/node";
import { secureCookies, sessionSecrets } from "~/utils/config.server";
import { cookieName } from "./cookie-name.server";
import { unsignCookieValue } from "~/utils/crypto.server";

/** Long enough for a journey with a late code and a resend or two; short, so a copied cookie soon ends. */
export const JOURNEY_SECONDS = 60 * 60;

export const JOURNEY_COOKIE = cookieName("journey");

const journeyCookie = createCookie(JOURNEY_COOKIE, {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure: secureCookies,
  secrets: sessionSecrets(),
  maxAge: JOURNEY_SECONDS,
});

/** The Set-Cookie header of a journey that goes on for JOURNEY_SECONDS from `now`. */
export function journeyHeader(now = Date.now()): Promise<string> {
  return journeyCookie.serialize({ until: now + JOURNEY_SECONDS * 1000 });
}

/**
 * Whether a journey cookie's raw value (as the Cookie header carries it) was signed with one of `secrets`
 * and has not ended at `now`. Synchronous and reads nothing: the admission control asks it for each request.
 */
export function isJourneyValue(raw: string, secrets: readonly string[], now = Date.now()): boolean {
  let value: string | null;
  try {
    value = unsignCookieValue(decodeURIComponent(raw), secrets);
  } catch {
    return false; // not URI-encoded as the site writes it
  }
  if (!value) return false;
  try {
    const data: unknown = JSON.parse(Buffer.from(value, "base64").toString("utf8"));
    const until = (data as { until?: unknown } | null)?.until;
    return typeof until === "number" && until > now;
  } catch {
    return false;
  }
}
