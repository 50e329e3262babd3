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
import { isIP } from "node:net";
import { and, eq, lt, sql } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import { prepared } from "@db/prepared";
import { config } from "./config.server";
import { now } from "./time";

const { rateLimitCounters: C } = schema;

/** Code SMS of every kind together in an hour (CODE_SMS_PER_HOUR): a ceiling no spread of addresses gets past. */
export const CODE_SMS_PER_HOUR = Math.max(1, Number(process.env.CODE_SMS_PER_HOUR) || 3000);
/**
 * The part of that hour's codes the public forms may not spend (CODE_SMS_STAFF_RESERVE, a tenth by
 * default): kept for the counters' purchase codes, their pre-registration codes and staff password resets,
 * so a bot that spends the public forms' ceiling cannot lock the counters out.
 */
export const CODE_SMS_STAFF_RESERVE = Math.min(
  CODE_SMS_PER_HOUR - 1,
  Math.max(0, Math.floor(Number(process.env.CODE_SMS_STAFF_RESERVE ?? Math.ceil(CODE_SMS_PER_HOUR / 10)) || 0)),
);
/** The one key of the code-SMS ceilings. */
export const EVERY_SENDER = "all";

/**
 * Each limit: `points` a window of `duration` seconds allows (times RATE_LIMIT_FACTOR); `address: true`
 * when its key is the client's address, counted by network (an IPv6 client by its /64, see addressKey);
 * `visitor: true` for the public forms' address limits, also times PUBLIC_ADDRESS_LIMIT_FACTOR (many
 * phones share one address on a mobile network; the per-phone limits and the code-SMS ceiling stay).
 */
export const LIMITS = {
  "login-ip": { points: 30, duration: 15 * 60, address: true },
  "login-account": { points: 10, duration: 15 * 60 },
  "password-check": { points: 10, duration: 15 * 60 },
  "reset-ip": { points: 10, duration: 60 * 60, address: true },
  "reset-account": { points: 3, duration: 60 * 60 },
  "enquiry-ip": { points: 20, duration: 60 * 60, address: true, visitor: true },
  "enquiry-phone": { points: 5, duration: 60 * 60 },
  "otp-verify-ip": { points: 60, duration: 10 * 60, address: true, visitor: true },
  "otp-resend-ip": { points: 20, duration: 60 * 60, address: true, visitor: true },
  // "Continue" codes per phone, counted whether or not the phone is registered (the code rules' 60 s and 5 an hour).
  "continue-phone-wait": { points: 1, duration: 60 },
  "continue-phone": { points: 5, duration: 60 * 60 },
  "test-ride-ip": { points: 20, duration: 60 * 60, address: true, visitor: true },
  "test-ride-phone": { points: 5, duration: 60 * 60 },
  // Every code SMS (pre-registration, resend, continue, purchase code, password reset), one key for all.
  "code-sms": { points: CODE_SMS_PER_HOUR, duration: 60 * 60 },
  // The public forms' code SMS (pre-registration, resend, continue, a visitor's new phone): the ceiling less the reserve.
  "public-code-sms": { points: CODE_SMS_PER_HOUR - CODE_SMS_STAFF_RESERVE, duration: 60 * 60 },
  // Public entries of other showrooms a branch user opens at the counter by their full phone (grants).
  "counter-grant": { points: 20, duration: 60 * 60 },
  // The prize notice of one registration: once in 10 minutes, five a day.
  "notify-wait": { points: 1, duration: 10 * 60 },
  "notify-day": { points: 5, duration: 24 * 60 * 60 },
} as const satisfies Record<string, { points: number; duration: number; address?: true; visitor?: true }>;

export type LimitName = keyof typeof LIMITS;

export type LimitResult = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };

const allowed = (name: LimitName) => {
  const visitor = "visitor" in LIMITS[name] ? config.publicAddressLimitFactor() : 1;
  return Math.floor(LIMITS[name].points * config.rateLimitFactor() * visitor);
};
const byAddress = (name: LimitName) => "address" in LIMITS[name];
const keyOf = (name: LimitName, key: string) => (byAddress(name) ? addressKey(key) : key.trim().toLowerCase());

/**
 * The key of a client address: an IPv4 address as it is (an IPv4-mapped IPv6 one as its IPv4),
 * an IPv6 address by its /64 network, which one client owns whole (2^64 addresses to rotate through).
 */
export function addressKey(address: string): string {
  const plain = address.trim().toLowerCase().replace(/%.*$/, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(plain);
  if (mapped) return mapped[1];
  if (isIP(plain) !== 6) return plain;
  const [head, tail = ""] = plain.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  if (right.at(-1)?.includes(".")) right.splice(-1, 1, "0", "0"); // an embedded IPv4 tail: past the /64 anyway
  const groups = plain.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/**
 * Takes `points` from a limit for a key, atomically, through `exec` (the
 * database or an open transaction). Refused when the window's count passes
 * the limit; the point is counted all the same, so hammering does not help.
 */
export function take(exec: Executor, name: LimitName, key: string, points = 1): LimitResult {
  const at = now().getTime();
  const windowEnd = at + LIMITS[name].duration * 1000;
  const row = takeQuery(exec).get({ name, key: keyOf(name, key), points, at, windowEnd })!;
  if (row.points > allowed(name)) {
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((row.reset_at - at) / 1000)) };
  }
  return { ok: true, remaining: allowed(name) - row.points };
}

const takeQuery = prepared((q) => {
  const [points, at, windowEnd] = [sql.placeholder("points"), sql.placeholder("at"), sql.placeholder("windowEnd")];
  return q
    .insert(C)
    .values({ name: sql.placeholder("name"), key: sql.placeholder("key"), points, reset_at: windowEnd })
    .onConflictDoUpdate({
      target: [C.name, C.key],
      // In an UPSERT's SET, the table's own columns are the stored row's values.
      set: {
        points: sql`case when ${C.reset_at} <= ${at} then ${points} else ${C.points} + ${points} end`,
        reset_at: sql`case when ${C.reset_at} <= ${at} then ${windowEnd} else ${C.reset_at} end`,
      },
    })
    .returning({ points: C.points, reset_at: C.reset_at })
    .prepare();
});

/** Takes one point on its own (not inside a caller's transaction). */
export function hit(name: LimitName, key: string): LimitResult {
  return take(db, name, key);
}

/** Whether a key is already over its limit, without taking a point. */
export function peek(name: LimitName, key: string): LimitResult {
  const at = now().getTime();
  const row = openWindow(name, key, at);
  if (!row) return { ok: true, remaining: allowed(name) };
  if (row.points >= allowed(name)) {
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((row.reset_at - at) / 1000)) };
  }
  return { ok: true, remaining: allowed(name) - row.points };
}

/** A window's points used so far and the most it allows (for /healthz). */
export function usage(name: LimitName, key: string): { used: number; allowed: number } {
  return { used: openWindow(name, key, now().getTime())?.points ?? 0, allowed: allowed(name) };
}

/** A key's window that has not ended at `at`, or null. */
function openWindow(name: LimitName, key: string, at: number) {
  const row = windowQuery(db).get({ name, key: keyOf(name, key) });
  return row && row.reset_at > at ? row : null;
}

const windowQuery = prepared((q) =>
  q
    .select()
    .from(C)
    .where(and(eq(C.name, sql.placeholder("name")), eq(C.key, sql.placeholder("key"))))
    .prepare(),
);

/** Forgets a key's count (a successful login clears its failures). */
export function clear(exec: Executor, name: LimitName, key: string) {
  exec
    .delete(C)
    .where(and(eq(C.name, name), eq(C.key, keyOf(name, key))))
    .run();
}

/** Drops windows that have ended (the background worker calls this). */
export function purgeExpiredLimits() {
  db.delete(C).where(lt(C.reset_at, now().getTime())).run();
}
