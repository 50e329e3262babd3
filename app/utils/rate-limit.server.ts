/**
 * Rate limits stored in SQLite, so they hold across every server process on the
 * database file. One fixed window per (limit, key): the first point opens the
 * window, later points count until it ends.
 *
 * Taking a point is one UPSERT ... RETURNING, atomic by itself, so a burst of
 * N parallel requests costs N points before any of them is let through, in one
 * process or many. Because it is a plain synchronous statement, it can run
 * inside the caller's transaction (`take(tx, ...)`), which keeps a public write
 * to a single commit; outside one, `hit` runs it on its own.
 * (rate-limiter-flexible, used before, offers only an asynchronous API, which
 * cannot take part in a synchronous better-sqlite3 transaction.)
 */
import { and, eq, lt, sql } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import { tooManyMessage } from "~/models/failure";
import { config } from "./config.server";
import { now } from "./time";

const { rateLimitCounters: C } = schema;

export const LIMITS = {
  "login-ip": { points: 30, duration: 15 * 60 },
  "login-account": { points: 10, duration: 15 * 60 },
  "password-check": { points: 10, duration: 15 * 60 },
  "reset-ip": { points: 10, duration: 60 * 60 },
  "reset-account": { points: 3, duration: 60 * 60 },
  "enquiry-ip": { points: 20, duration: 60 * 60 },
  "enquiry-phone": { points: 5, duration: 60 * 60 },
  "otp-verify-ip": { points: 60, duration: 10 * 60 },
  "otp-resend-ip": { points: 20, duration: 60 * 60 },
  // "Continue" codes per phone, counted whether or not the phone is registered (the code rules' 60 s and 5 an hour).
  "continue-phone-wait": { points: 1, duration: 60 },
  "continue-phone": { points: 5, duration: 60 * 60 },
  "test-ride-ip": { points: 20, duration: 60 * 60 },
  "test-ride-phone": { points: 5, duration: 60 * 60 },
} as const satisfies Record<string, { points: number; duration: number }>;

export type LimitName = keyof typeof LIMITS;

export type LimitResult = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };

const allowed = (name: LimitName) => LIMITS[name].points * config.rateLimitFactor();
const normalise = (key: string) => key.trim().toLowerCase();

/**
 * Takes `points` from a limit for a key, atomically, through `exec` (the
 * database or an open transaction). Refused when the window's count passes
 * the limit; the point is counted all the same, so hammering does not help.
 */
export function take(exec: Executor, name: LimitName, key: string, points = 1): LimitResult {
  const at = now().getTime();
  const windowEnd = at + LIMITS[name].duration * 1000;
  const row = exec
    .insert(C)
    .values({ name, key: normalise(key), points, reset_at: windowEnd })
    .onConflictDoUpdate({
      target: [C.name, C.key],
      // In an UPSERT's SET, the table's own columns are the stored row's values.
      set: {
        points: sql`case when ${C.reset_at} <= ${at} then ${points} else ${C.points} + ${points} end`,
        reset_at: sql`case when ${C.reset_at} <= ${at} then ${windowEnd} else ${C.reset_at} end`,
      },
    })
    .returning({ points: C.points, reset_at: C.reset_at })
    .get();
  if (row.points > allowed(name)) {
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((row.reset_at - at) / 1000)) };
  }
  return { ok: true, remaining: allowed(name) - row.points };
}

/** Takes one point on its own (not inside a caller's transaction). */
export function hit(name: LimitName, key: string): LimitResult {
  return take(db, name, key);
}

/** Whether a key is already over its limit, without taking a point. */
export function peek(name: LimitName, key: string): LimitResult {
  const at = now().getTime();
  const row = db
    .select()
    .from(C)
    .where(and(eq(C.name, name), eq(C.key, normalise(key))))
    .get();
  if (!row || row.reset_at <= at) return { ok: true, remaining: allowed(name) };
  if (row.points >= allowed(name)) {
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((row.reset_at - at) / 1000)) };
  }
  return { ok: true, remaining: allowed(name) - row.points };
}

/** Forgets a key's count (a successful login clears its failures). */
export function clear(exec: Executor, name: LimitName, key: string) {
  exec
    .delete(C)
    .where(and(eq(C.name, name), eq(C.key, normalise(key))))
    .run();
}

/** Drops windows that have ended (the background worker calls this). */
export function purgeExpiredLimits() {
  db.delete(C).where(lt(C.reset_at, now().getTime())).run();
}

export { tooManyMessage };
