// Staff login, sessions, remember-me, sign-out and the login rate limit, through the real route modules.
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { action as loginAction, loader as loginLoader } from "~/routes/login";
import { action as logoutAction } from "~/routes/logout";
import { loader as adminLoader } from "~/routes/admin";
import { action as profileAction } from "~/routes/admin.profile";
import { verifyLogin } from "~/models/user.server";
import { ADDRESS_HEADER } from "~/http/auth.server";
import { makeBranch, makeUser } from "../fixtures";

const ctx = { clientAddress: "10.0.0.1" };

function loginRequest(email: string, password: string, extra: Record<string, string> = {}, address = "10.0.0.1") {
  return new Request("http://localhost/login", {
    method: "POST",
    headers: { [ADDRESS_HEADER]: address },
    body: new URLSearchParams({ email, password, ...extra }),
  });
}

/** A refused login's message: conform's result, the message above the form, the email sent back and never the password. */
function refusal(body: { result: { error: Record<string, string[]>; initialValue: Record<string, unknown> } }) {
  expect(Object.keys(body.result.initialValue)).toEqual(["email"]);
  return body.result.error[""]?.[0];
}

async function cookieOf(res: Response) {
  return res.headers.get("Set-Cookie") ?? "";
}

let admin: Awaited<ReturnType<typeof makeUser>>;

beforeAll(async () => {
  admin = await makeUser("super-admin", null);
});

describe("login", () => {
  it("refuses a wrong password with Invalid Credentials", async () => {
    const res = (await loginAction({
      request: loginRequest(admin.email, "nope"),
      context: ctx,
      params: {},
    })) as Response;
    expect(res.status).toBe(401);
    expect(refusal(await res.json())).toBe("Invalid Credentials");
  });

  it("signs in, follows redirectTo and keeps only a hash of the session id", async () => {
    const res = (await loginAction({
      request: loginRequest(admin.email, admin.password, { redirectTo: "/admin/test-ride" }),
      context: ctx,
      params: {},
    })) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/admin/test-ride");
    const cookie = await cookieOf(res);
    expect(cookie).toMatch(/__session=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Expires/); // a browser-session cookie without Remember Me
    const rows = db.select().from(schema.sessions).all();
    expect(rows.some((r) => r.user_id === admin.id && r.id.length === 64)).toBe(true);
  });

  it("never follows a redirect to another site", async () => {
    const res = (await loginAction({
      request: loginRequest(admin.email, admin.password, { redirectTo: "//evil.example/x" }),
      context: ctx,
      params: {},
    })) as Response;
    expect(res.headers.get("Location")).toBe("/admin");
  });

  it("Remember Me makes a cookie that lasts 30 days", async () => {
    const res = (await loginAction({
      request: loginRequest(admin.email, admin.password, { remember_me: "on" }),
      context: ctx,
      params: {},
    })) as Response;
    const expires = /Expires=([^;]+)/.exec(await cookieOf(res))?.[1];
    expect(expires).toBeTruthy();
    const days = (Date.parse(expires!) - Date.now()) / 86400_000;
    expect(days).toBeGreaterThan(29);
  });

  it("an authenticated visit to /login goes to the page asked for", async () => {
    const res = (await loginAction({
      request: loginRequest(admin.email, admin.password),
      context: ctx,
      params: {},
    })) as Response;
    const cookie = (await cookieOf(res)).split(";")[0];
    const thrown = await loginLoader({
      request: new Request("http://localhost/login?redirectTo=/admin/user", { headers: { Cookie: cookie } }),
      context: ctx,
      params: {},
    }).catch((e: Response) => e);
    expect((thrown as Response).status).toBe(302);
    expect((thrown as Response).headers.get("Location")).toBe("/admin/user");
  });

  it("sign out ends the session on the server", async () => {
    const res = (await loginAction({
      request: loginRequest(admin.email, admin.password),
      context: ctx,
      params: {},
    })) as Response;
    const cookie = (await cookieOf(res)).split(";")[0];
    const ok = await adminLoader({
      request: new Request("http://localhost/admin", { headers: { Cookie: cookie } }),
      context: ctx,
      params: {},
    });
    expect((ok as Response).status).toBe(200);
    const out = (await logoutAction({
      request: new Request("http://localhost/logout", { method: "POST", headers: { Cookie: cookie } }),
      context: ctx,
      params: {},
    })) as Response;
    expect(out.headers.get("Location")).toBe("/login");
    // The old cookie no longer opens the back office.
    await expect(
      adminLoader({
        request: new Request("http://localhost/admin", { headers: { Cookie: cookie } }),
        context: ctx,
        params: {},
      }),
    ).rejects.toMatchObject({ status: 302 });
  });

  it("locks an account after 10 failed attempts, even from other addresses", async () => {
    const branch = makeBranch();
    const victim = await makeUser("branch-staff", branch.id);
    for (let i = 0; i < 10; i++) {
      const res = (await loginAction({
        request: loginRequest(victim.email, "wrong", {}, `10.1.0.${i}`),
        context: ctx,
        params: {},
      })) as Response;
      expect(refusal(await res.json())).toBe("Invalid Credentials");
    }
    const res = (await loginAction({
      request: loginRequest(victim.email, victim.password, {}, "10.2.0.1"),
      context: ctx,
      params: {},
    })) as Response;
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(refusal(await res.json())).toMatch(/Too many attempts/);
  });

  it("limits attempts per address", async () => {
    let last: Response | undefined;
    for (let i = 0; i < 31; i++) {
      last = (await loginAction({
        request: loginRequest(`nobody${i}@example.test`, "x", {}, "10.9.9.9"),
        context: ctx,
        params: {},
      })) as Response;
    }
    expect(refusal(await last!.json())).toMatch(/Too many attempts/);
  });

  it("the profile page changes one's own password only with the current one", async () => {
    const user = await makeUser("branch-staff", makeBranch().id);
    const res = (await loginAction({
      request: loginRequest(user.email, user.password),
      context: ctx,
      params: {},
    })) as Response;
    const cookie = (await cookieOf(res)).split(";")[0];
    const post = (body: Record<string, string>) =>
      profileAction({
        request: new Request("http://localhost/admin/profile", {
          method: "POST",
          headers: { Cookie: cookie },
          body: new URLSearchParams(body),
        }),
        context: ctx,
        params: {},
      }) as Promise<Response>;
    const wrong = await post({
      current_password: "nope",
      password: "new-pass-123",
      password_confirmation: "new-pass-123",
    });
    expect((await wrong.json()).error.current_password).toEqual(["The current password is incorrect."]);
    const mismatch = await post({
      current_password: user.password,
      password: "new-pass-123",
      password_confirmation: "other",
    });
    expect((await mismatch.json()).error.password_confirmation).toEqual(["The password confirmation does not match."]);
    const ok = await post({
      current_password: user.password,
      password: "new-pass-123",
      password_confirmation: "new-pass-123",
    });
    expect(ok.status).toBe(302);
    expect(await verifyLogin(user.email, "new-pass-123")).not.toBeNull();
    expect(await verifyLogin(user.email, user.password)).toBeNull();
  });
});
