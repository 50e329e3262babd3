// One-time codes (app/models/otp.server.ts): the rules the other code tests leave unsaid. A code the
// staff screens show counts its tries down; a resend is free again once the 60 seconds are over; an
// untracked code's SMS names no subject; a phone that is not a mobile number is kept trimmed; and a
// check takes the database's write lock before it reads the code.
import Database from "better-sqlite3";
import { and, desc, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { databasePath, db, schema } from "@db/index";
import {
  canResendAt,
  issueCodeIn,
  latestCode,
  OTP_RULES,
  verifyCode,
  type CodePurpose,
  type IssueInput,
} from "~/models/otp.server";
import { setClock } from "~/utils/time";

const START = Date.parse("2026-11-21T06:00:00.000Z");
let clock = START;
let phoneSeq = 0;
const freshPhone = () => String(9850000000 + ++phoneSeq);
let subjectSeq = 1000;
const freshSubject = () => ++subjectSeq;

function issue(input: Partial<IssueInput> & { subjectId: number; phone: string }) {
  return db.transaction(
    (tx) =>
      issueCodeIn(tx, {
        purpose: "preregistration",
        text: (code) => `Your verification code is ${code}`,
        smsPurpose: "otp",
        sender: "public",
        ...input,
      }),
    { behavior: "immediate" },
  );
}

const lastSmsTo = (phone: string) =>
  db
    .select()
    .from(schema.smsMessages)
    .where(eq(schema.smsMessages.to, phone))
    .orderBy(desc(schema.smsMessages.id))
    .get();

const codeOf = (purpose: CodePurpose, subjectId: number) =>
  db
    .select()
    .from(schema.oneTimeCodes)
    .where(and(eq(schema.oneTimeCodes.purpose, purpose), eq(schema.oneTimeCodes.subject_id, subjectId)))
    .orderBy(desc(schema.oneTimeCodes.id))
    .get();

beforeEach(() => {
  clock = START;
  setClock(() => new Date(clock));
  delete process.env.SMS_PROVIDER;
});

afterEach(() => {
  setClock(null);
});

describe("a code on the staff screens", () => {
  it("shows the tries left, one fewer for each wrong code", () => {
    const subjectId = freshSubject();
    expect(issue({ subjectId, phone: freshPhone() }).ok).toBe(true);
    expect(latestCode("preregistration", subjectId)?.attemptsLeft).toBe(OTP_RULES.maxAttempts);
    expect(verifyCode({ purpose: "preregistration", subjectId, code: "not-it" })).toMatchObject({ ok: false });
    expect(verifyCode({ purpose: "preregistration", subjectId, code: "not-it" })).toMatchObject({ ok: false });
    expect(latestCode("preregistration", subjectId)).toMatchObject({
      state: "live",
      attemptsLeft: OTP_RULES.maxAttempts - 2,
    });
  });
});

describe("canResendAt", () => {
  it("is now once the 60 seconds after the last code are over", () => {
    const subjectId = freshSubject();
    expect(issue({ subjectId, phone: freshPhone() }).ok).toBe(true);
    expect(canResendAt("preregistration", subjectId).getTime()).toBe(START + OTP_RULES.resendAfterSeconds * 1000);
    clock = START + (OTP_RULES.resendAfterSeconds + 1) * 1000;
    expect(canResendAt("preregistration", subjectId).getTime()).toBe(clock);
  });
});

describe("the code's SMS", () => {
  it("names its subject, unless the code is not tracked", () => {
    const tracked = freshSubject();
    const trackedPhone = freshPhone();
    expect(issue({ subjectId: tracked, phone: trackedPhone }).ok).toBe(true);
    expect(lastSmsTo(trackedPhone)?.subject_id).toBe(tracked);

    const untracked = freshSubject();
    const untrackedPhone = freshPhone();
    expect(issue({ subjectId: untracked, phone: untrackedPhone, tracked: false }).ok).toBe(true);
    expect(lastSmsTo(untrackedPhone)?.subject_id).toBeNull();

    const explicit = freshSubject();
    const explicitPhone = freshPhone();
    expect(issue({ subjectId: explicit, phone: explicitPhone, tracked: true }).ok).toBe(true);
    expect(lastSmsTo(explicitPhone)?.subject_id).toBe(explicit);
  });
});

describe("a phone that is not a mobile number", () => {
  it("is kept without its surrounding spaces", () => {
    const subjectId = freshSubject();
    const issued = issue({ subjectId, phone: "  01-4444444  " });
    expect(issued).toMatchObject({ ok: true, phone: "01-4444444" });
    expect(codeOf("preregistration", subjectId)?.phone).toBe("01-4444444");
  });
});

describe("verifyCode", () => {
  it("holds the write lock from the start of its transaction, so two checks of one code never interleave", () => {
    const subjectId = freshSubject();
    expect(issue({ subjectId, phone: freshPhone() }).ok).toBe(true);
    const other = new Database(databasePath(), { timeout: 0 });
    let otherWriter: "refused" | "let in" | null = null;
    try {
      // The check reads the clock inside its transaction, before it reads the code: another connection
      // asking for the write lock at that moment must be refused.
      setClock(() => {
        if (otherWriter === null) {
          try {
            other.exec("BEGIN IMMEDIATE");
            other.exec("ROLLBACK");
            otherWriter = "let in";
          } catch {
            otherWriter = "refused";
          }
        }
        return new Date(clock);
      });
      expect(verifyCode({ purpose: "preregistration", subjectId, code: "not-it" })).toMatchObject({ ok: false });
    } finally {
      other.close();
    }
    expect(otherWriter).toBe("refused");
  });
});
