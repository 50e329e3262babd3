/**
 * The security headers of every answer (pages, API JSON, downloads, files and static assets),
 * applied by server.js before anything else runs. helmet writes the standard ones; the
 * Content-Security-Policy depends on what the answer is, decided when its headers go out:
 *
 * - HTML documents: scripts only from this site ('self': Remix's modules in the back office)
 *   or carrying this request's nonce (the public pages' inline scripts, Remix's inline scripts),
 *   plus reCAPTCHA's hosts when the captcha is configured; never 'unsafe-inline' for scripts.
 *   Styles allow inline attributes (the server-rendered style={...} of the draw reveal).
 * - Anything else (JSON, images, .xls, CSS, JS): `default-src 'none'`, so an answer opened on
 *   its own runs nothing.
 *
 * Strict-Transport-Security (and upgrade-insecure-requests) only when the site is served over
 * HTTPS, which is when cookies are Secure (production, unless COOKIE_SECURE=false).
 */
import type { RequestHandler, Response } from "express";
import helmet, { type HelmetOptions } from "helmet";
import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import onHeaders from "on-headers";
import { config, secureCookies } from "~/utils/config.server";

export type SecurityOptions = {
  /** Served over HTTPS (HSTS, upgrade-insecure-requests). */
  https: boolean;
  /** A reCAPTCHA site key is configured: its script and frame hosts are allowed. */
  recaptcha: boolean;
};

export const securityOptions = (): SecurityOptions => ({
  https: secureCookies,
  // The same rule as the widget (captchaSiteKey): a site key and a secret.
  recaptcha: Boolean(config.recaptchaSiteKey() && config.recaptchaSecret()),
});

/** Google's documented hosts for reCAPTCHA v2 (script and challenge frame). */
export const RECAPTCHA_SCRIPT_SOURCES = ["https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"];
export const RECAPTCHA_FRAME_SOURCES = ["https://www.google.com/recaptcha/", "https://recaptcha.google.com/recaptcha/"];

/** Powerful features no page of the site uses, switched off for every page and frame. */
export const PERMISSIONS_POLICY = ["camera", "microphone", "geolocation", "payment", "usb"]
  .map((feature) => `${feature}=()`)
  .join(", ");

/** A fresh random nonce (128 bits, base64), one per request. */
export const newNonce = () => crypto.randomBytes(16).toString("base64");

type Source = string | ((req: IncomingMessage, res: ServerResponse) => string);

const nonceOf = (res: ServerResponse): string => String((res as Response).locals?.cspNonce ?? "");

/** The headers common to every answer, and the policy for documents or for everything else. */
function helmetOptions(options: SecurityOptions, document: boolean): HelmetOptions {
  const directives: Record<string, Source[]> = document
    ? {
        "default-src": ["'self'"],
        "script-src": [
          "'self'",
          (_req, res) => `'nonce-${nonceOf(res)}'`,
          ...(options.recaptcha ? RECAPTCHA_SCRIPT_SOURCES : []),
        ],
        "style-src": ["'self'", "'unsafe-inline'"],
        // Winner thumbnails may live on a video host.
        "img-src": ["'self'", "data:", "blob:", "https:"],
        ...(options.recaptcha ? { "frame-src": RECAPTCHA_FRAME_SOURCES } : {}),
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        ...(options.https ? { "upgrade-insecure-requests": [] } : {}),
      }
    : { "default-src": ["'none'"], "frame-ancestors": ["'none'"] };
  return {
    contentSecurityPolicy: { useDefaults: false, directives },
    crossOriginEmbedderPolicy: false,
    // Window isolation and framing are about documents; frame-ancestors covers framing for all.
    crossOriginOpenerPolicy: document ? { policy: "same-origin" } : false,
    crossOriginResourcePolicy: { policy: "same-origin" },
    originAgentCluster: false,
    referrerPolicy: { policy: "same-origin" },
    strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xContentTypeOptions: true,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: document ? { action: "deny" } : false,
    xPermittedCrossDomainPolicies: false,
    xPoweredBy: true,
    xXssProtection: false,
  };
}

/**
 * Express middleware: gives the request its nonce (res.locals.cspNonce, handed to the app as
 * loadContext.cspNonce) and sets the headers on whatever answer goes out, from a route, a
 * static file or a refusal of server.js.
 */
export function securityHeaders(options: SecurityOptions = securityOptions()): RequestHandler {
  const forDocuments = helmet(helmetOptions(options, true));
  const forOthers = helmet(helmetOptions(options, false));
  return (req, res, next) => {
    res.locals.cspNonce = newNonce();
    onHeaders(res, () => {
      const type = String(res.getHeader("Content-Type") ?? "");
      (/^text\/html\b/i.test(type) ? forDocuments : forOthers)(req, res, () => undefined);
      res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
      res.removeHeader("Server");
    });
    next();
  };
}
