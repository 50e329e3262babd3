// /reset-password really resets: a code goes to the account's phone through the SMS outbox.
import { afterEach, describe, expect, it, vi } from "vitest";
import { db, schema } from "@db/index";
import { action } from "~/routes/reset-password";
import { lastMessageTo } from "~/models/sms-outbox.server";
import { RESET_ANSWER_MS } from "~/models/password-reset.server";
import { LIMITS } from "~/utils/rate-limit.server";
import { ADDRESS_HEADER } from "~/http/auth.server";
import { verifyLogin } from "~/models/user.server";
import { createUser, roleBySlug } from "~/models/user.server";

const ctx = { clientAddress: "10.6.0.1" };
const post = (body: Record<string, string>, context = ctx) =>
  action({
    request: new Request("http://localhost/reset-password", {
      method: "POST",
      body: new URLSearchParams(body),
      headers: { [ADDRESS_HEADER]: context.clientAddress },
    }),
    context,
    params: {},
  }) as Promise<Response>;

describe("password reset", () => {
  it("sends a code by SMS, refuses a wrong one, sets the password with the right one", async () => {
    const user = await createUser({
      first_name: "Reset",
      email: "reset@example.test",
      phone: "9812345678",
      role_id: roleBySlug("branch-staff")!.id,
      password: "old-pass-123",
    });
    const sent = await post({ intent: "send", email: "reset@example.test" });
    expect(sent.headers.get("Location")).toBe("/reset-password?step=code&email=reset%40example.test");
    const sms = lastMessageTo("9812345678", "password-reset");
    const code = /\b(\d{6})\b/.exec(sms!.text)![1];
    // the code is stored only as a hash
    const row = db
      .select()
      .from(schema.oneTimeCodes)
      .all()
      .find((r) => r.subject_id === user.id && r.purpose === "password_reset")!;
    expect(row.code).toBeNull();
    expect(row.code_hash).not.toContain(code);

    const wrongCode = code === "000000" ? "111111" : "000000";
    const bad = await post({
      intent: "reset",
      email: "reset@example.test",
      code: wrongCode,
      password: "new-pass-123",
      password_confirmation: "new-pass-123",
    });
    expect((await bad.json()).error.code).toEqual(["The code is invalid or has expired."]);

    const ok = await post({
      intent: "reset",
      email: "reset@example.test",
      code,
      password: "new-pass-123",
      password_confirmation: "new-pass-123",
    });
    expect(ok.headers.get("Location")).toBe("/login");
    expect(await verifyLogin("reset@example.test", "new-pass-123")).not.toBeNull();
    // the code works once
    const again = await post({
      intent: "reset",
      email: "reset@example.test",
      code,
      password: "other-pass-123",
      password_confirmation: "other-pass-123",
    });
    expect(again.status).toBe(422);
  });

  it("refuses a commonly used password before using up the code", async () => {
    const res = await post({
      intent: "reset",
      email: "reset@example.test",
      code: "123456",
      password: "password123",
      password_confirmation: "password123",
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toMatch(/common/i);
  });

  it("answers the same for an unknown e-mail and sends nothing", async () => {
    const before = db.select().from(schema.smsMessages).all().length;
    const res = await post({ intent: "send", email: "nobody-here@example.test" });
    expect(res.status).toBe(302);
    expect(db.select().from(schema.smsMessages).all().length).toBe(before);
  });
});

describe("the answer to a reset request", () => {
  afterEach(() => vi.useRealTimers());

  let visitor = 0;

  /** Whether the request has been answered once the fake clock has moved `ms`. */
  async function answeredAfter(body: Record<string, string>, ms: number): Promise<boolean> {
    let answered = false;
    // Each from its own address: the address's limit is a visible refusal of its own, answered at once.
    const pending = post(body, { clientAddress: `10.7.0.${++visitor}` }).then(() => (answered = true));
    await vi.advanceTimersByTimeAsync(ms);
    const result = answered;
    await vi.advanceTimersByTimeAsync(RESET_ANSWER_MS);
    await pending;
    return result;
  }

  it("comes at the same fixed time for a known address, an unknown one and one past its limit", async () => {
    await createUser({
      first_name: "Timed",
      email: "timed@example.test",
      phone: "9812340000",
      role_id: roleBySlug("branch-staff")!.id,
      password: "old-pass-123",
    });
    // Every request of the account first, so the limited one is the last.
    for (let i = 0; i < LIMITS["reset-account"].points; i++)
      await post({ intent: "send", email: "limit@example.test" });
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    for (const email of ["timed@example.test", "nobody@example.test", "limit@example.test"]) {
      expect(await answeredAfter({ intent: "send", email }, RESET_ANSWER_MS - 1), email).toBe(false);
      expect(await answeredAfter({ intent: "send", email }, RESET_ANSWER_MS), email).toBe(true);
    }
  });
});
