/** Runtime configuration read from the environment, with the defaults documented in docs/operations.md. */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const env = process.env;

export const isProduction = env.NODE_ENV === "production";

/** Cookie secret: SESSION_SECRET, else a random one kept beside the database (one VPS). */
export function sessionSecrets(): string[] {
  if (env.SESSION_SECRET) return env.SESSION_SECRET.split(",");
  const file = path.resolve(env.DATA_DIR ?? "data", ".session-secret");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(32).toString("hex"), { mode: 0o600 });
  }
  return [fs.readFileSync(file, "utf8").trim()];
}

/** Secure cookies: on in production unless COOKIE_SECURE=false (plain-http demo). */
export const secureCookies = env.COOKIE_SECURE ? env.COOKIE_SECURE === "true" : isProduction;

export const uploadsDir = () => path.resolve(env.UPLOADS_DIR ?? path.join(env.DATA_DIR ?? "data", "uploads"));

export const config = {
  /** Back-office session lifetime without / with Remember Me. */
  sessionHours: 12,
  rememberDays: 30,
  /** API bearer token lifetime without / with remember_me. */
  tokenHours: 24,
  tokenRememberDays: 30,
  smsProvider: () => env.SMS_PROVIDER ?? "outbox",
  smsGatewayUrl: () => env.SMS_GATEWAY_URL ?? "",
  smsGatewayToken: () => env.SMS_GATEWAY_TOKEN ?? "",
  smsGatewayFrom: () => env.SMS_GATEWAY_FROM ?? "",
  recaptchaSiteKey: () => env.RECAPTCHA_SITE_KEY ?? "",
  recaptchaSecret: () => env.RECAPTCHA_SECRET ?? "",
  recaptchaVerifyUrl: () => env.RECAPTCHA_VERIFY_URL ?? "https://www.google.com/recaptcha/api/siteverify",
  /** Rate limits can be loosened for load tests (RATE_LIMIT_FACTOR=1000). */
  rateLimitFactor: () => Number(env.RATE_LIMIT_FACTOR ?? 1),
  /**
   * The public forms' limits per client address, raised for a campaign's busiest days
   * (PUBLIC_ADDRESS_LIMIT_FACTOR; anything but a positive number is 1): a mobile network puts many
   * phones behind one address.
   */
  publicAddressLimitFactor: () => {
    const factor = Number(env.PUBLIC_ADDRESS_LIMIT_FACTOR);
    return Number.isFinite(factor) && factor > 0 ? factor : 1;
  },
};
