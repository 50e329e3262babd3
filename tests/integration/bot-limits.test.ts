/**
 * Limits that hold against a real bot: an IPv6 client counts by its /64; the public forms' code SMS meet
 * an hourly ceiling of their own (CODE_SMS_PER_HOUR less CODE_SMS_STAFF_RESERVE) that answers 429 and raises
 * an alert in /healthz, while the counters' purchase codes and staff resets still go out from the reserve;
 * the prize notice goes once in 10 minutes and five times a day per registration; the review step's
 * "taken" answers cost the same phone point as a save; production without captcha keys warns.
 */
import { and, eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

// Set before the modules read it: five code SMS an hour, two of them kept for staff.
vi.hoisted(() => {
  process.env.CODE_SMS_PER_HOUR = "5";
  process.env.CODE_SMS_STAFF_RESERVE = "2";
  process.env.RATE_LIMIT_FACTOR = "1";
});

import { db, schema } from "@db/index";
import { createPreregistration, reviewPreregistration } from "~/models/preregistration.server";
import { sendContinueCode } from "~/models/preregistration-verify.server";
import { requestPasswordReset } from "~/models/password-reset.server";
import { createRegistration, notifyRegistration } from "~/models/registration.server";
import { SYSTEM_ACTOR } from "~/models/scope.server";
import { loader as healthz } from "~/routes/healthz";
import { action as notifyAction } from "~/routes/api.v1.registration.$slug.notify";
import { publicPreregistrationSchema, OTP_MESSAGES } from "~/schemas/preregistration";
import { REGISTRATION_MESSAGES, type RegistrationInput } from "~/schemas/registration";
import { captchaStartupWarning, CAPTCHA_OFF_WARNING } from "~/http/captcha.server";
import { addressKey, LIMITS, take } from "~/utils/rate-limit.server";
import { setClock } from "~/utils/time";
import { makeBikeModel, makeBranch, makePreregistration, nextPhone } from "../fixtures";
import { makeRegistration } from "../referral-fixtures";
import { call, req, staffWith } from "../route-helpers";

let branchId = 0;
let modelId = 0;
beforeAll(() => {
  branchId = makeBranch().id;
  modelId = makeBikeModel().id;
});

/** A purchase as the counter's form sends it. */
const purchase = (n: number) =>
  ({
    bill_no: `CEIL${n}`,
    name: "Counter Buyer",
    address: "Kathmandu",
    citizenship_no: "12345",
    bike_model_id: modelId,
    engine_no: `CE${n}`,
    chasis_no: `CC${n}`,
    registration_no: `CR${n}`,
    payment_mode: "CASH",
    send_sms: true,
  }) as unknown as RegistrationInput;
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

describe("the hourly ceilings of code SMS: the public forms' share, and every sender's", () => {
  it("lets three public codes out, then answers 429 with when, keeps nothing, and /healthz names the public ceiling", async () => {
    const codes = () => db.select().from(schema.smsMessages).where(eq(schema.smsMessages.purpose, "otp")).all().length;
    const before = codes();
    for (let i = 0; i < 3; i++) {
      const ok = await createPreregistration({ channel: "public", address: `198.51.100.${i + 1}` }, visitorForm());
      expect(ok.ok).toBe(true);
    }
    expect(codes()).toBe(before + 3);
    const healthy = await (await healthz()).json();
    expect(healthy.publicCodeSms).toMatchObject({ used: 3, perHour: 3, state: "reached" });
    expect(healthy.codeSms).toMatchObject({ used: 3, perHour: 5, state: "ok" });
    expect(healthy.alerts).toEqual(["public forms' code SMS ceiling reached: 3 of 3 this hour"]);

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

    // The counter's purchase code and a staff password reset still go out, from the reserve.
    const smsOf = (purpose: string, to: string) =>
      db
        .select()
        .from(schema.smsMessages)
        .where(and(eq(schema.smsMessages.purpose, purpose), eq(schema.smsMessages.to, to)))
        .all();
    const buyer = makePreregistration({ branch_id: branchId, is_verified: true, status: "verified" });
    const counter = await staffWith(["read-registration", "create-registration"], branchId);
    const bought = await createRegistration(
      { id: counter.user.id, email: counter.user.email, address: null, scope: { branchId } },
      buyer.slug,
      purchase(buyer.id),
    );
    expect(bought.ok).toBe(true);
    expect(smsOf("purchase-code", buyer.phone)).toHaveLength(1);
    const resetPhone = nextPhone();
    const staff = await staffWith([], branchId);
    db.update(schema.users).set({ phone: resetPhone }).where(eq(schema.users.id, staff.user.id)).run();
    await requestPasswordReset(staff.user.email);
    expect(smsOf("password-reset", resetPhone)).toHaveLength(1);
    const spent = await (await healthz()).json();
    expect(spent.codeSms).toMatchObject({ used: 5, perHour: 5, state: "reached" });
    expect(spent.alerts).toEqual([
      "public forms' code SMS ceiling reached: 3 of 3 this hour",
      "code SMS ceiling reached: 5 of 5 this hour",
    ]);
    // Past every sender's ceiling, staff wait too.
    const another = nextPhone();
    const refusedToo = await createPreregistration(
      {
        channel: "counter",
        actor: { id: counter.user.id, email: counter.user.email, address: null, scope: { branchId } },
      },
      visitorForm(another),
    );
    expect(refusedToo).toMatchObject({ ok: false, code: "rate_limited" });

    // An hour later the ceilings open again.
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
