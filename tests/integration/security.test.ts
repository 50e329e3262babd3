// The security review's medium items that live in shared building blocks: the login limit under a
// parallel burst, a password change ending the other sessions and tokens, and the body reader's refusals.
import { and, eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { checkCredentials } from "~/http/auth.server";
import { issueToken } from "~/http/api.server";
import { readBody, BODY_LIMITS, STREAMED_DRAIN_BYTES } from "~/http/body.server";
import { sessionStorage } from "~/http/session.server";
import { sha256 } from "~/utils/crypto.server";
import { changePassword, verifyLogin } from "~/models/user.server";
import { makeBranch, makeUser } from "../fixtures";

describe("login limit under a parallel burst", () => {
  it("40 wrong passwords in one burst from two addresses cost 40 points and lock the account after 10", async () => {
    const victim = await makeUser("branch-staff", makeBranch().id);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        checkCredentials(victim.email, `wrong-${i}`, i % 2 ? "10.50.0.1" : "10.50.0.2"),
      ),
    );
    const codes = results.map((r) => (r.ok ? "ok" : r.code));
    expect(codes.filter((c) => c === "unauthenticated")).toHaveLength(10);
    expect(codes.filter((c) => c === "rate_limited")).toHaveLength(30);
    const counter = db
      .select()
      .from(schema.rateLimitCounters)
      .where(and(eq(schema.rateLimitCounters.name, "login-account"), eq(schema.rateLimitCounters.key, victim.email)))
      .get();
    expect(counter?.points).toBe(40);
    // Locked: even the right password is refused now.
    const right = await checkCredentials(victim.email, victim.password, "10.50.0.3");
    expect(right.ok ? "ok" : right.code).toBe("rate_limited");
    // Every failure and the lock are in the audit trail.
    const trail = db.select().from(schema.auditLog).where(eq(schema.auditLog.entity_id, victim.email)).all();
    expect(trail.filter((r) => r.action === "auth.login_failed")).toHaveLength(10);
    expect(trail.filter((r) => r.action === "auth.login_locked").length).toBeGreaterThanOrEqual(30);
  });
});

describe("password change", () => {
  it("ends every other session and API token, keeps the current session, and is limited like login", async () => {
    const user = await makeUser("branch-staff", makeBranch().id);
    const session = async () => {
      const s = await sessionStorage.getSession();
      s.set("userId", user.id);
      const cookie = await sessionStorage.commitSession(s);
      const id = (await sessionStorage.getSession(cookie.split(";")[0])).id;
      return sha256(id);
    };
    const current = await session();
    const other = await session();
    const token = issueToken(user.id, false);
    const actor = { id: user.id, email: user.email, address: "10.60.0.1" };

    const wrong = await changePassword(actor, { current: "nope", next: "brand-new-pass-1" }, current);
    expect(wrong.ok ? "ok" : wrong.errors).toEqual({ current_password: ["The current password is incorrect."] });

    const done = await changePassword(actor, { current: user.password, next: "brand-new-pass-1" }, current);
    expect(done.ok).toBe(true);
    const sessions = db.select().from(schema.sessions).where(eq(schema.sessions.user_id, user.id)).all();
    expect(sessions.map((s) => s.id)).toEqual([current]);
    expect(sessions.some((s) => s.id === other)).toBe(false);
    const live = db
      .select()
      .from(schema.apiTokens)
      .where(and(eq(schema.apiTokens.token_hash, sha256(token.token)), isNull(schema.apiTokens.revoked_at)))
      .get();
    expect(live).toBeUndefined();
    expect(await verifyLogin(user.email, "brand-new-pass-1")).not.toBeNull();
    expect(
      db.select().from(schema.auditLog).where(eq(schema.auditLog.action, "user.password")).all().length,
    ).toBeGreaterThan(0);

    // Guesses at the current password: 10 allowed in the window, then refused before checking.
    let last: Awaited<ReturnType<typeof changePassword>> | undefined;
    for (let i = 0; i < 11; i++)
      last = await changePassword(actor, { current: `guess-${i}`, next: "x-new-pass-22" }, current);
    expect(last && !last.ok && last.code).toBe("rate_limited");
  });
});

function req(body: BodyInit | null, headers: Record<string, string> = {}) {
  return new Request("http://localhost/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

describe("the one body reader", () => {
  it("reads JSON, urlencoded and multipart", async () => {
    expect(await readBody(req('{"a":1}', { "Content-Type": "application/json" }))).toEqual({
      kind: "json",
      json: { a: 1 },
    });
    const url = await readBody(req("a=1&b=%E0%A4%95", { "Content-Type": "application/x-www-form-urlencoded" }));
    expect("kind" in url && url.kind === "form" && url.form.get("b")).toBe("क");
    const fd = new FormData();
    fd.append("a", "x");
    const multi = await readBody(new Request("http://localhost/x", { method: "POST", body: fd }));
    expect("kind" in multi && multi.kind === "form" && multi.form.get("a")).toBe("x");
  });

  it("refuses what it cannot read with the right failure, never a crash", async () => {
    const code = async (r: Request, opts = {}) => {
      const out = await readBody(r, opts);
      return "ok" in out ? out.code : out.kind;
    };
    expect(await code(req("hello", { "Content-Type": "text/plain" }))).toBe("unsupported_type");
    expect(await code(req('{"a":', { "Content-Type": "application/json" }))).toBe("bad_request");
    expect(await code(req("[1,2]", { "Content-Type": "application/json" }))).toBe("bad_request");
    expect(await code(req(null))).toBe("bad_request");
    expect(await code(req(null), { optional: true })).toBe("none");
    expect(await code(req("a=1", { "Content-Type": "application/json" }), { accept: ["urlencoded"] })).toBe(
      "unsupported_type",
    );
    const truncated = '--XX\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue';
    expect(await code(req(truncated, { "Content-Type": "multipart/form-data; boundary=XX" }))).toBe("bad_request");
    expect(await code(req("%zz=%%", { "Content-Type": "application/x-www-form-urlencoded" }))).toBe("form");
  });

  it("refuses a 20 MB body at the limit, declared or not, with memory flat", async () => {
    const chunk = new Uint8Array(1024 * 1024).fill(0x61);
    let sent = 0;
    let megabytes = 20;
    const stream = () =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= megabytes) return controller.close();
          sent++;
          controller.enqueue(chunk);
        },
      });
    const json = { "Content-Type": "application/json" };
    const undeclared = await readBody(req(stream(), json), { limit: BODY_LIMITS.form });
    expect("ok" in undeclared && undeclared.code).toBe("too_large");
    // Past the limit the body is only read to be thrown away (so the client surely sees the 413); the
    // memory that costs is measured by `npm run bench` ("Bodies far past the limit").
    // A body past the drain allowance is left unread (the answer closes the connection).
    sent = 0;
    megabytes = 100;
    const huge = await readBody(req(stream(), json), { limit: BODY_LIMITS.form });
    expect("ok" in huge && huge.code).toBe("too_large");
    expect(sent).toBeLessThanOrEqual(STREAMED_DRAIN_BYTES / chunk.length + 3); // the limit, the allowance and a prefetch
    expect(sent).toBeLessThan(megabytes);
    // Declared too large: refused before reading.
    sent = 0;
    megabytes = 20;
    const declared = await readBody(req(stream(), { ...json, "Content-Length": String(20 * 1024 * 1024) }));
    expect("ok" in declared && declared.code).toBe("too_large");
    expect(sent).toBeLessThanOrEqual(1); // the stream's own first prefetch
  });
});
