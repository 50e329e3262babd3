/**
 * Rate limits stored in SQLite (rate-limiter-flexible), so they hold across
 * every server process on the database file. One table of named limits.
 */
import { RateLimiterRes, RateLimiterSQLite } from "rate-limiter-flexible";
import { getDb } from "@db/index";
import { config } from "./config.server";

const LIMITS = {
  "login-ip": { points: 30, duration: 15 * 60 },
  "login-account": { points: 10, duration: 15 * 60 },
  "reset-ip": { points: 10, duration: 60 * 60 },
  "reset-account": { points: 3, duration: 60 * 60 },
  "enquiry-ip": { points: 20, duration: 60 * 60 },
  "enquiry-phone": { points: 5, duration: 60 * 60 },
  "otp-verify-ip": { points: 60, duration: 10 * 60 },
  "otp-resend-ip": { points: 20, duration: 60 * 60 },
  "test-ride-ip": { points: 20, duration: 60 * 60 },
  "test-ride-phone": { points: 5, duration: 60 * 60 },
} as const;

export type LimitName = keyof typeof LIMITS;

const limiters = new Map<string, RateLimiterSQLite>();

function limiter(name: LimitName): RateLimiterSQLite {
  const db = getDb();
  const key = `${name}:${(db.$client as unknown as { name: string }).name}`;
  let l = limiters.get(key);
  if (!l) {
    db.$client.exec(
      "CREATE TABLE IF NOT EXISTS rate_limits (key TEXT PRIMARY KEY, points INTEGER NOT NULL DEFAULT 0, expire INTEGER)",
    );
    l = new RateLimiterSQLite({
      storeClient: db.$client,
      storeType: "better-sqlite3",
      tableName: "rate_limits",
      tableCreated: true,
      keyPrefix: name,
      points: LIMITS[name].points * config.rateLimitFactor(),
      duration: LIMITS[name].duration,
    });
    limiters.set(key, l);
  }
  return l;
}

export type LimitResult = { ok: true } | { ok: false; retryAfterSeconds: number };

/** Takes one point from a named limit for a key (an address, a phone, an e-mail). */
export async function hit(name: LimitName, key: string): Promise<LimitResult> {
  try {
    await limiter(name).consume(key.toLowerCase());
    return { ok: true };
  } catch (e) {
    if (e instanceof RateLimiterRes) return { ok: false, retryAfterSeconds: Math.ceil(e.msBeforeNext / 1000) };
    throw e;
  }
}

/** Whether a key is still under its limit, without taking a point. */
export async function isBlocked(name: LimitName, key: string): Promise<LimitResult> {
  const res = await limiter(name).get(key.toLowerCase());
  if (res && res.remainingPoints <= 0) return { ok: false, retryAfterSeconds: Math.ceil(res.msBeforeNext / 1000) };
  return { ok: true };
}

export async function clear(name: LimitName, key: string) {
  await limiter(name).delete(key.toLowerCase());
}

export const tooManyMessage = (seconds: number) =>
  `Too many attempts. Please try again in ${Math.max(1, Math.ceil(seconds / 60))} minute(s).`;
