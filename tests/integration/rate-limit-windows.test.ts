/**
 * The rate limiter's own rules, beside the limits met through their doors (limits.test.ts): how an
 * IPv6 address is cut to its /64 in every spelling, and what a window that has ended counts for
 * peek, usage and the purge.
 */
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { addressKey, LIMITS, peek, purgeExpiredLimits, take, usage } from "~/utils/rate-limit.server";
import { setClock } from "~/utils/time";

afterEach(() => setClock(null));
const C = schema.rateLimitCounters;
const stored = (name: string, key: string) =>
  db
    .select()
    .from(C)
    .where(and(eq(C.name, name), eq(C.key, key)))
    .get();

describe("an IPv6 address by its /64, however it is written", () => {
  it.each([
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001::3:4:5:6:7", "2001:0:0:3::/64"],
    ["1::2:3:4:5:1.2.3.4", "1:0:2:3::/64"],
    ["64:ff9b::1.2.3.4", "64:ff9b:0:0::/64"],
    ["::", "0:0:0:0::/64"],
  ])("%s → %s", (address, key) => {
    expect(addressKey(address)).toBe(key);
  });
});

describe("a window that has ended", () => {
  const start = Date.parse("2026-03-01T00:00:00.000Z");
  const window = LIMITS["continue-phone"].duration * 1000;

  it("peek: refused while the window is full, free again from the moment it ends; remaining counts down", () => {
    setClock(() => new Date(start));
    const key = "9800000101";
    expect(take(db, "continue-phone", key).ok).toBe(true);
    expect(peek("continue-phone", key)).toEqual({ ok: true, remaining: LIMITS["continue-phone"].points - 1 });
    for (let i = 1; i < LIMITS["continue-phone"].points; i++) take(db, "continue-phone", key);
    expect(peek("continue-phone", key)).toMatchObject({ ok: false });
    setClock(() => new Date(start + window - 1));
    expect(peek("continue-phone", key)).toEqual({ ok: false, retryAfterSeconds: 1 });
    setClock(() => new Date(start + window));
    expect(peek("continue-phone", key)).toEqual({ ok: true, remaining: LIMITS["continue-phone"].points });
  });

  it("usage: what the open window used; nothing once it has ended", () => {
    setClock(() => new Date(start));
    const key = "9800000102";
    take(db, "continue-phone", key);
    take(db, "continue-phone", key);
    expect(usage("continue-phone", key).used).toBe(2);
    setClock(() => new Date(start + window - 1));
    expect(usage("continue-phone", key).used).toBe(2);
    setClock(() => new Date(start + window));
    expect(usage("continue-phone", key).used).toBe(0);
  });

  it("the purge drops windows that have ended and keeps open ones", () => {
    setClock(() => new Date(start));
    take(db, "continue-phone", "9800000103");
    setClock(() => new Date(start + window / 2));
    take(db, "continue-phone", "9800000104");
    setClock(() => new Date(start + window + 1));
    purgeExpiredLimits();
    expect(stored("continue-phone", "9800000103")).toBeUndefined();
    expect(stored("continue-phone", "9800000104")).toBeDefined();
  });
});
