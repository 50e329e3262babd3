/**
 * Limits that hold against a real bot: an IPv6 client counts by its /64; every code SMS together
 * meets an hourly ceiling (CODE_SMS_PER_HOUR) that answers 429 and raises an alert in /healthz;
 * the prize notice goes once in 10 minutes and five times a day per registration; the review step's
 * "taken" answers cost the same phone point as a save; production without captcha keys warns.
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

// Set before the modules read it: a ceiling of three code SMS an hour.
vi.hoisted(() => {
  process.env.CODE_SMS_PER_HOUR = "3";
  process.env.RATE_LIMIT_FACTOR = "1";
});

import { db, schema } from "@db/index";
import { createPreregistration, reviewPreregistration } from "~/models/preregistration.server";
import { sendContinueCode } from "~/models/preregistration-verify.server";
import { notifyRegistration } from "~/models/registration.server";
import { SYSTEM_ACTOR } from "~/models/scope.server";
import { loader as healthz } from "~/routes/healthz";
import { action as notifyAction } from "~/routes/api.v1.registration.$slug.notify";
import { publicPreregistrationSchema, OTP_MESSAGES } from "~/schemas/preregistration";
import { REGISTRATION_MESSAGES } from "~/schemas/registration";
import { captchaStartupWarning, CAPTCHA_OFF_WARNING } from "~/utils/captcha.server";
import { addressKey, LIMITS, take } from "~/utils/rate-limit.server";
import { setClock } from "~/utils/time";
import { makeBranch, nextPhone } from "../fixtures";
import { makeRegistration } from "../referral-fixtures";
import { call, req, staffWith } from "./catalogue-helpers";

let branchId = 0;
beforeAll(() => {
  branchId = makeBranch().id;
});
afterEach(() => setClock(null));

const visitorForm = (phone = nextPhone()) =>
  publicPreregistrationSchema.parse({
    name: "Bot Visitor",
    address: "Kathmandu",
    phone,
    citizenship_no: `C-${phone}`,
    nearest_branch_id: String(branchId),
  });

describe("an IPv6 client counts by its /64", () => {
  it("keys every address of one /64 alike, another /64 apart, IPv4 and mapped IPv4 as themselves", () => {
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:0db8:0001:0002:ffff:1:2:3")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:DB8:1:2::9%eth0")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
  });

  it("a bot rotating through its /64 meets the per-address limit of code sends", () => {
    const allowed = LIMITS["otp-resend-ip"].points;
    const results = Array.from({ length: allowed + 1 }, (_, i) =>
      take(db, "otp-resend-ip", `2001:db8:99:1:${(i + 1).toString(16)}::${i + 7}`),
    );
    expect(results.slice(0, allowed).every((r) => r.ok)).toBe(true);
    expect(results[allowed]).toMatchObject({ ok: false });
    // Its neighbour network is counted apart.
    expect(take(db, "otp-resend-ip", "2001:db8:99:2::1").ok).toBe(true);
  });
});

describe("the hourly ceiling of code SMS (every sender together)", () => {
  it("lets three codes out, then answers 429 with when, keeps nothing, and /healthz alerts", async () => {
    const codes = () => db.select().from(schema.smsMessages).where(eq(schema.smsMessages.purpose, "otp")).all().length;
    const before = codes();
    for (let i = 0; i < 3; i++) {
      const ok = await createPreregistration({ channel: "public", address: `198.51.100.${i + 1}` }, visitorForm());
      expect(ok.ok).toBe(true);
    }
    expect(codes()).toBe(before + 3);
    const healthy = await (await healthz()).json();
    expect(healthy.codeSms).toMatchObject({ used: 3, perHour: 3, state: "reached" });
    expect(healthy.alerts).toEqual(["code SMS ceiling reached: 3 of 3 this hour"]);

    const phone = nextPhone();
    const refused = await createPreregistration({ channel: "public", address: "198.51.100.50" }, visitorForm(phone));
    expect(refused).toMatchObject({ ok: false, code: "rate_limited" });
    if (refused.ok) throw new Error("expected a refusal");
    expect(refused.message).toBe(OTP_MESSAGES.ceiling(60));
    expect(refused.retryAfterSeconds).toBeGreaterThan(3000);
    expect(db.select().from(schema.preregistrations).where(eq(schema.preregistrations.phone, phone)).get()).toBe(
      undefined,
    );
    expect(codes()).toBe(before + 3);

    // "Continue" answers alike for any phone, registered or not.
    const cont = sendContinueCode({ channel: "public", address: "198.51.100.60" }, nextPhone());
    expect(cont).toMatchObject({ ok: false, code: "rate_limited", message: OTP_MESSAGES.ceiling(60) });

    // An hour later the ceiling opens again.
    const later = new Date(Date.now() + 61 * 60_000);
    setClock(() => later);
    expect((await createPreregistration({ channel: "public", address: "198.51.100.70" }, visitorForm())).ok).toBe(true);
  });
});

describe("the prize notice of one registration", () => {
  it("goes once in 10 minutes and five times a day, with a 429 that says when", async () => {
    const staff = await staffWith(["create-registration", "read-registration"], branchId);
    const reg = makeRegistration(branchId, { status: "drawn" });
    const notify = () =>
      call(notifyAction as never, req("POST", `/api/v1/registration/${reg.slug}/notify`, { token: staff.token }), {
        slug: reg.slug,
      });
    expect((await notify()).status).toBe(200);
    const again = await notify();
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("Retry-After"))).toBeGreaterThan(590);
    expect((await again.json()).message).toBe(REGISTRATION_MESSAGES.notifyTooSoon(10));

    const start = Date.now();
    for (let k = 1; k < 5; k++) {
      setClock(() => new Date(start + k * 11 * 60_000));
      expect(notifyRegistration(SYSTEM_ACTOR, reg.slug).ok).toBe(true);
    }
    setClock(() => new Date(start + 5 * 11 * 60_000));
    const sixth = notifyRegistration(SYSTEM_ACTOR, reg.slug);
    expect(sixth).toMatchObject({ ok: false, code: "rate_limited" });
    // Another registration has its own count.
    expect(notifyRegistration(SYSTEM_ACTOR, makeRegistration(branchId, { status: "drawn" }).slug).ok).toBe(true);
  });
});

describe("the review step", () => {
  it("costs the phone a point, as a save does: the sixth look at one phone in an hour is refused", async () => {
    const phone = nextPhone();
    const looks = [];
    for (let i = 0; i < LIMITS["enquiry-phone"].points + 1; i++) {
      looks.push(await reviewPreregistration({ channel: "public", address: `192.0.2.${i + 1}` }, visitorForm(phone)));
    }
    expect(looks.slice(0, -1).every((r) => r.ok)).toBe(true);
    expect(looks.at(-1)).toMatchObject({ ok: false, code: "rate_limited" });
  });
});

describe("a production start without captcha keys", () => {
  it("warns, and says nothing in development or with keys", () => {
    expect(captchaStartupWarning(true)).toBe(CAPTCHA_OFF_WARNING);
    expect(captchaStartupWarning(false)).toBeNull();
    process.env.RECAPTCHA_SITE_KEY = "site";
    process.env.RECAPTCHA_SECRET = "secret";
    try {
      expect(captchaStartupWarning(true)).toBeNull();
    } finally {
      delete process.env.RECAPTCHA_SITE_KEY;
      delete process.env.RECAPTCHA_SECRET;
    }
  });
});
