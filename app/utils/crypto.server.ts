/** Random values, hashes and password hashing in one place. */
import crypto from "node:crypto";
import { promisify } from "node:util";

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/** URL-safe random string of `bytes` random bytes (base64url). */
export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString("base64url");
}

/** Public slugs: 12 random bytes (96 bits), never a sequential id. */
/** A fresh idempotency key for a rendered form (a double submit then creates one record). */
export const newFormToken = () => randomToken(18);

export function randomSlug(): string {
  return randomToken(12);
}

/** A numeric code of `digits` digits from a cryptographic source. */
export function randomDigits(digits = 6): string {
  let out = "";
  for (let i = 0; i < digits; i++) out += crypto.randomInt(0, 10).toString();
  return out;
}

/** A uniform float in [0, 1) from a cryptographic source (53 bits). */
export function randomUnit(): number {
  const buf = crypto.randomBytes(8);
  const hi = buf.readUInt32BE(0) >>> 5; // 27 bits
  const lo = buf.readUInt32BE(4) >>> 6; // 26 bits
  return (hi * 67108864 + lo) / 9007199254740992;
}

export function sha256(value: string): string {
  return crypto.createHash("sha256").update(value).digest("hex");
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}

/**
 * The HMAC-SHA256 of `value` with `secret`, in base64 without padding: the signature Remix's signed cookies
 * carry after the value's last "." (the cookie-signature package's format).
 */
export function cookieSignature(value: string, secret: string): string {
  return crypto.createHmac("sha256", secret).update(value).digest("base64").replace(/=+$/, "");
}

/** The value of a signed cookie's `value.signature` when one of `secrets` signed it, else null. Synchronous. */
export function unsignCookieValue(signed: string, secrets: readonly string[]): string | null {
  const dot = signed.lastIndexOf(".");
  if (dot < 1) return null;
  const value = signed.slice(0, dot);
  const given = signed.slice(dot + 1);
  return secrets.some((secret) => safeEqual(cookieSignature(value, secret), given)) ? value : null;
}

/** The signature part of an API token (base64url of an HMAC over its random part, kept apart from cookies'). */
const tokenSignature = (random: string, secret: string) =>
  crypto.createHmac("sha256", secret).update(`api-token:${random}`).digest("base64url");

/**
 * A new API bearer token: 32 random bytes and their signature with the cookie secret (`random.signature`).
 * The database still decides whether a token is valid; the signature lets the server tell a token it issued
 * from a made-up one without reading it (isSignedToken).
 */
export function newSignedToken(secret: string): string {
  const random = randomToken(32);
  return `${random}.${tokenSignature(random, secret)}`;
}

/** Whether `token` was made by newSignedToken with one of `secrets` (nothing is read: valid or revoked alike). */
export function isSignedToken(token: string, secrets: readonly string[]): boolean {
  const dot = token.indexOf(".");
  if (dot < 1) return false;
  const random = token.slice(0, dot);
  const given = token.slice(dot + 1);
  return secrets.some((secret) => safeEqual(tokenSignature(random, secret), given));
}

const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** scrypt with a random salt; the parameters travel with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password.normalize("NFKC"), salt, 64, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !key) return false;
  const expected = Buffer.from(key, "base64");
  const actual = await scrypt(password.normalize("NFKC"), Buffer.from(salt, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return crypto.timingSafeEqual(actual, expected);
}

/** A dummy hash so unknown e-mails take as long as wrong passwords. */
export const DUMMY_PASSWORD_HASH = "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$" + Buffer.alloc(64).toString("base64");
