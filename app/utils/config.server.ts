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

/** drand quicknet (League of Entropy): the public beacon the draws use unless BEACON_* say otherwise. */
export const QUICKNET = {
  name: "quicknet",
  urls: ["https://api.drand.sh", "https://api2.drand.sh", "https://api3.drand.sh", "https://drand.cloudflare.com"],
  chainHash: "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
  publicKey:
    "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a",
  genesis: 1692803367,
  period: 3,
};

/**
 * The randomness beacon (docs/decisions/0019-fair-draws.md): its relays, chain and key.
 * BEACON=off draws every day with the house seed (marked, counted).
 */
export function beaconConfig() {
  if (env.BEACON === "off") return null;
  const list = (env.BEACON_URLS ?? "").split(",").map((u) => u.trim().replace(/\/+$/, ""));
  return {
    name: env.BEACON_NAME ?? QUICKNET.name,
    urls: list.some(Boolean) ? list.filter(Boolean) : QUICKNET.urls,
    chainHash: env.BEACON_CHAIN_HASH ?? QUICKNET.chainHash,
    publicKey: env.BEACON_PUBLIC_KEY ?? QUICKNET.publicKey,
    genesis: Number(env.BEACON_GENESIS ?? QUICKNET.genesis),
    period: Number(env.BEACON_PERIOD ?? QUICKNET.period),
    /** How long after a round's time a draw waits for it before it uses the house seed. */
    waitMs: Number(env.BEACON_WAIT_MS ?? 4000),
  };
}
export type BeaconConfig = NonNullable<ReturnType<typeof beaconConfig>>;

/**
 * The key that seals a running day's house seed in the database (AES-256-GCM): DRAW_SEAL_KEY,
 * else a random one kept beside the session secret, never in the database or its backups.
 */
export function drawSealKey(): Buffer {
  if (env.DRAW_SEAL_KEY) return crypto.createHash("sha256").update(env.DRAW_SEAL_KEY).digest();
  const file = path.resolve(env.DATA_DIR ?? "data", ".draw-seal-key");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      fs.writeFileSync(file, crypto.randomBytes(32).toString("hex"), { mode: 0o600, flag: "wx" });
    } catch (error) {
      // Another process made it first: its key stands.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  return Buffer.from(fs.readFileSync(file, "utf8").trim(), "hex");
}

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
