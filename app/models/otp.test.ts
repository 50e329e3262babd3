import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { setClock } from "~/utils/time";
import {
  canResendAt,
  checkCodeIn,
  currentCode,
  issueCodeIn,
  latestCode,
  OTP_RULES,
  verifyCode,
  type CodePurpose,
} from "./otp.server";
import { lastMessageTo } from "./sms-outbox.server";

const START = Date.parse("2026-11-21T06:00:00.000Z");
let clock = START;
const advance = (seconds: number) => {
  clock += seconds * 1000;
};

let phoneSeq = 0;
const freshPhone = () => String(9840000000 + ++phoneSeq);

const text = (code: string) => `Your verification code is ${code}`;
const codeFromSms = (phone: string) => /(\d{6})/.exec(lastMessageTo(phone)?.text ?? "")![1];
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

/** A code issued in a transaction of its own, its SMS queued with it. */
async function issue(subjectId: number, phone: string, purpose: CodePurpose = "preregistration") {
  const smsPurpose = purpose === "password_reset" ? "password-reset" : "otp";
  return db.transaction((tx) => issueCodeIn(tx, { purpose, subjectId, phone, text, smsPurpose, sender: "public" }), {
    behavior: "immediate",
  });
}

function codeRows(purpose: CodePurpose, subjectId: number) {
  return db
    .select()
    .from(schema.oneTimeCodes)
    .where(and(eq(schema.oneTimeCodes.purpose, purpose), eq(schema.oneTimeCodes.subject_id, subjectId)))
    .all();
}

beforeEach(() => {
  clock = START;
  setClock(() => new Date(clock));
  delete process.env.SMS_PROVIDER;
  db.delete(schema.oneTimeCodes).run();
});

afterEach(() => {
  setClock(null);
});

describe("issueCodeIn", () => {
  it("queues a 6-digit code by SMS and keeps it for staff screens", async () => {
    const phone = freshPhone();
    const result = await issue(1, phone);
    expect(result).toEqual({
      ok: true,
      expiresAt: new Date(START + 10 * 60 * 1000).toISOString(),
      phone,
      text: expect.stringMatching(/^Your verification code is \d{6}$/),
    });
    const current = currentCode("preregistration", 1)!;
    expect(current.code).toMatch(/^\d{6}$/);
    expect(current).toMatchObject({
      phone,
      attemptsLeft: 5,
      state: "live",
      expiresAt: new Date(START + 600_000).toISOString(),
    });
    const sms = lastMessageTo(phone, "otp")!;
    expect(sms.text).toBe(`Your verification code is ${current.code}`);
    const [row] = codeRows("preregistration", 1);
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.code_hash).not.toContain(current.code!);
  });

  it("always makes 6 digits, leading zeros included", async () => {
    for (let i = 0; i < 30; i++) {
      await issue(100 + i, freshPhone());
      expect(currentCode("preregistration", 100 + i)?.code).toMatch(/^\d{6}$/);
    }
  });

  it("stores the phone in its 10-digit form", async () => {
    await issue(2, "+977-9841112233");
    expect(currentCode("preregistration", 2)?.phone).toBe("9841112233");
  });

  it("refuses a resend before 60 seconds and allows it after", async () => {
    const phone = freshPhone();
    await issue(3, phone);
    expect(canResendAt("preregistration", 3).getTime()).toBe(START + 60_000);

    advance(20);
    expect(await issue(3, phone)).toEqual({ ok: false, reason: "too-soon", retryAfterSeconds: 40 });
    advance(39.5);
    expect(await issue(3, phone)).toEqual({ ok: false, reason: "too-soon", retryAfterSeconds: 1 });
    expect(codeRows("preregistration", 3)).toHaveLength(1);

    advance(0.5);
    expect((await issue(3, phone)).ok).toBe(true);
    expect(codeRows("preregistration", 3)).toHaveLength(2);
  });

  it("judges the resend wait per purpose and subject", async () => {
    const phone = freshPhone();
    await issue(4, phone);
    expect((await issue(5, phone)).ok).toBe(true);
    expect((await issue(4, phone, "registration")).ok).toBe(true);
  });

  it("refuses the 6th send to a phone within an hour", async () => {
    const phone = freshPhone();
    for (let i = 0; i < OTP_RULES.maxSendsPerHour; i++) {
      expect((await issue(6, phone)).ok).toBe(true);
      advance(61);
    }
    // 5 sends at 0, 61, ..., 244 s; now 305 s. The first leaves the hour at 3600 s.
    expect(await issue(6, phone)).toEqual({ ok: false, reason: "hourly-cap", retryAfterSeconds: 3600 - 305 });
    // Another subject on the same phone is capped too.
    expect(await issue(7, phone)).toMatchObject({ ok: false, reason: "hourly-cap" });
    expect(canResendAt("preregistration", 6).getTime()).toBe(START + 3600_000);

    clock = START + 3600_000;
    expect((await issue(6, phone)).ok).toBe(true);
    // At 3660 s the window holds the sends at 61, 122, 183, 244 and 3600 s: wait for 61 s to age out.
    advance(60);
    expect(await issue(6, phone)).toEqual({ ok: false, reason: "hourly-cap", retryAfterSeconds: 1 });
    advance(1);
    expect((await issue(6, phone)).ok).toBe(true);
  });

  it("stores no plain code for a password reset; the SMS still carries it", async () => {
    const phone = freshPhone();
    await issue(8, phone, "password_reset");
    const [row] = codeRows("password_reset", 8);
    expect(row.code).toBeNull();
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(currentCode("password_reset", 8)).toMatchObject({ code: null, state: "live" });
    const sent = codeFromSms(phone);
    expect(lastMessageTo(phone)?.purpose).toBe("password-reset");
    expect(verifyCode({ purpose: "password_reset", subjectId: 8, code: sent })).toEqual({ ok: true });
  });

  it("counts the code as sent once its SMS is queued, whatever the gateway does later", async () => {
    process.env.SMS_PROVIDER = "http";
    delete process.env.SMS_GATEWAY_URL;
    const phone = freshPhone();
    expect((await issue(9, phone)).ok).toBe(true);
    expect(lastMessageTo(phone, "otp")?.status).toBe("queued");
    expect(currentCode("preregistration", 9)).not.toBeNull();
  });
});

describe("verifyCode", () => {
  it("accepts the right code once", async () => {
    await issue(20, freshPhone());
    const code = currentCode("preregistration", 20)!.code!;
    expect(verifyCode({ purpose: "preregistration", subjectId: 20, code })).toEqual({ ok: true });
    expect(verifyCode({ purpose: "preregistration", subjectId: 20, code })).toEqual({ ok: false, reason: "none" });
    expect(currentCode("preregistration", 20)).toBeNull();
    expect(latestCode("preregistration", 20)).toMatchObject({ code, state: "used" });
    expect(codeRows("preregistration", 20)[0].consumed_at).toBe(new Date(START).toISOString());
  });

  it("accepts the code with surrounding spaces", async () => {
    await issue(21, freshPhone());
    const code = currentCode("preregistration", 21)!.code!;
    expect(
      verifyCode({ purpose: "preregistration", subjectId: 21, code: ` ${code.slice(0, 3)} ${code.slice(3)} ` }),
    ).toEqual({ ok: true });
  });

  it("counts a wrong code as a try", async () => {
    await issue(22, freshPhone());
    const code = currentCode("preregistration", 22)!.code!;
    expect(verifyCode({ purpose: "preregistration", subjectId: 22, code: otherThan(code) })).toEqual({
      ok: false,
      reason: "invalid",
      attemptsLeft: 4,
    });
    expect(codeRows("preregistration", 22)[0].attempts).toBe(1);
    expect(verifyCode({ purpose: "preregistration", subjectId: 22, code: "" })).toMatchObject({
      reason: "invalid",
      attemptsLeft: 3,
    });
    expect(codeRows("preregistration", 22)[0].attempts).toBe(2);
    expect(verifyCode({ purpose: "preregistration", subjectId: 22, code })).toEqual({ ok: true });
  });

  it("kills the code after 5 wrong tries, even for the right code", async () => {
    const phone = freshPhone();
    await issue(23, phone);
    const code = currentCode("preregistration", 23)!.code!;
    for (let i = 1; i <= 5; i++) {
      expect(verifyCode({ purpose: "preregistration", subjectId: 23, code: otherThan(code) })).toEqual({
        ok: false,
        reason: "invalid",
        attemptsLeft: 5 - i,
      });
    }
    expect(verifyCode({ purpose: "preregistration", subjectId: 23, code })).toEqual({ ok: false, reason: "exhausted" });
    expect(codeRows("preregistration", 23)[0].attempts).toBe(5);
    expect(currentCode("preregistration", 23)).toBeNull();
    expect(latestCode("preregistration", 23)?.state).toBe("exhausted");

    // A new code (after the resend wait) works again.
    advance(60);
    expect((await issue(23, phone)).ok).toBe(true);
    const fresh = currentCode("preregistration", 23)!.code!;
    expect(verifyCode({ purpose: "preregistration", subjectId: 23, code: fresh })).toEqual({ ok: true });
  });

  it("expires a code after 10 minutes", async () => {
    await issue(24, freshPhone());
    await issue(25, freshPhone());
    const code24 = currentCode("preregistration", 24)!.code!;
    const code25 = currentCode("preregistration", 25)!.code!;

    advance(10 * 60 - 1);
    expect(verifyCode({ purpose: "preregistration", subjectId: 24, code: code24 })).toEqual({ ok: true });

    advance(1);
    expect(currentCode("preregistration", 25)).toBeNull();
    expect(latestCode("preregistration", 25)?.state).toBe("expired");
    expect(verifyCode({ purpose: "preregistration", subjectId: 25, code: code25 })).toEqual({
      ok: false,
      reason: "expired",
    });
  });

  it("only the latest code counts after a resend", async () => {
    const phone = freshPhone();
    await issue(26, phone);
    const first = currentCode("preregistration", 26)!.code!;
    advance(60);
    await issue(26, phone);
    const second = currentCode("preregistration", 26)!.code!;
    if (first !== second) {
      expect(verifyCode({ purpose: "preregistration", subjectId: 26, code: first })).toMatchObject({
        reason: "invalid",
      });
    }
    expect(verifyCode({ purpose: "preregistration", subjectId: 26, code: second })).toEqual({ ok: true });
  });

  it("does not accept a code for another subject or purpose", async () => {
    await issue(27, freshPhone());
    const code = currentCode("preregistration", 27)!.code!;
    expect(verifyCode({ purpose: "preregistration", subjectId: 28, code })).toEqual({ ok: false, reason: "none" });
    expect(verifyCode({ purpose: "registration", subjectId: 27, code })).toEqual({ ok: false, reason: "none" });
    await issue(29, freshPhone());
    expect(verifyCode({ purpose: "preregistration", subjectId: 29, code })).toMatchObject(
      code === currentCode("preregistration", 29)!.code ? { ok: true } : { reason: "invalid" },
    );
  });

  it("answers none when no code was sent", () => {
    expect(verifyCode({ purpose: "registration", subjectId: 999, code: "123456" })).toEqual({
      ok: false,
      reason: "none",
    });
    expect(currentCode("registration", 999)).toBeNull();
    expect(canResendAt("registration", 999).getTime()).toBe(START);
  });
});

describe("inside the caller's transaction", () => {
  it("writes the code and its SMS (queued for the worker) together; a rollback leaves neither", () => {
    const phone = freshPhone();
    expect(() =>
      db.transaction((tx) => {
        expect(
          issueCodeIn(tx, {
            purpose: "preregistration",
            subjectId: 501,
            phone,
            text,
            smsPurpose: "otp",
            sender: "public",
          }).ok,
        ).toBe(true);
        throw new Error("rolled back");
      }),
    ).toThrow("rolled back");
    expect(codeRows("preregistration", 501)).toEqual([]);
    expect(lastMessageTo(phone)).toBeNull();

    const issued = db.transaction((tx) =>
      issueCodeIn(tx, { purpose: "preregistration", subjectId: 501, phone, text, smsPurpose: "otp", sender: "public" }),
    );
    expect(issued).toMatchObject({ ok: true, phone });
    expect(codeRows("preregistration", 501)).toHaveLength(1);
    const sms = lastMessageTo(phone, "otp")!;
    expect(sms).toMatchObject({ status: "queued", attempts: 0 });
    expect(sms.text).toBe(`Your verification code is ${currentCode("preregistration", 501)!.code}`);
    // The code rules hold: no second code within the minute.
    expect(
      db.transaction((tx) =>
        issueCodeIn(tx, {
          purpose: "preregistration",
          subjectId: 501,
          phone,
          text,
          smsPurpose: "otp",
          sender: "public",
        }),
      ),
    ).toMatchObject({ ok: false, reason: "too-soon" });
  });

  it("a check rolled back with its transaction leaves the code unused", () => {
    const phone = freshPhone();
    db.transaction((tx) =>
      issueCodeIn(tx, { purpose: "preregistration", subjectId: 502, phone, text, smsPurpose: "otp", sender: "public" }),
    );
    const code = currentCode("preregistration", 502)!.code!;
    expect(() =>
      db.transaction((tx) => {
        expect(checkCodeIn(tx, { purpose: "preregistration", subjectId: 502, code })).toEqual({ ok: true });
        throw new Error("rolled back");
      }),
    ).toThrow("rolled back");
    expect(currentCode("preregistration", 502)).toMatchObject({ state: "live", attemptsLeft: 5 });
    expect(verifyCode({ purpose: "preregistration", subjectId: 502, code })).toEqual({ ok: true });
  });
});
