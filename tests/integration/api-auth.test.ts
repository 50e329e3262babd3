// API conventions: bearer tokens, 401/403/422/429, {data, message}, login lockout, token revocation and expiry.
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { db, schema } from "@db/index";
import { action as loginAction } from "~/routes/api.v1.auth.login";
import { action as meAction } from "~/routes/api.v1.auth.me";
import { action as logoutAction } from "~/routes/api.v1.auth.logout";
import { loader as rolesLoader } from "~/routes/api.v1.role";
import { loader as settingsLoader } from "~/routes/api.v1.settings";
import { ADDRESS_HEADER } from "~/http/auth.server";
import { sha256 } from "~/utils/crypto.server";
import { LIMITS } from "~/utils/rate-limit.server";
import { makeBranch, makeUser } from "../fixtures";
import { responseOf } from "../route-helpers";

const ctx = { clientAddress: "10.3.0.1" };
const json = (url: string, body: unknown, token?: string) =>
  new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
const get = (url: string, token?: string) =>
  new Request(`http://localhost${url}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });

let admin: Awaited<ReturnType<typeof makeUser>>;
let staff: Awaited<ReturnType<typeof makeUser>>;

async function tokenFor(email: string, password: string, remember = false) {
  const res = await responseOf(
    loginAction({
      request: json("/api/v1/auth/login", { email, password, remember_me: remember }),
      context: ctx,
      params: {},
    }),
  );
  return { res, body: await res.json() };
}

beforeAll(async () => {
  admin = await makeUser("super-admin", null);
  staff = await makeUser("branch-staff", makeBranch().id);
});

describe("POST /api/v1/auth/login", () => {
  it("returns an access_token and the user with its permissions; stores only a hash", async () => {
    const { res, body } = await tokenFor(admin.email, admin.password);
    expect(res.status).toBe(200);
    expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
    expect(body.user.email).toBe(admin.email);
    expect(body.user.permissions).toContain("manage-allocation");
    expect(body.user.isAdmin).toBe(true);
    const row = db
      .select()
      .from(schema.apiTokens)
      .where(eq(schema.apiTokens.token_hash, sha256(body.access_token)))
      .get();
    expect(row?.user_id).toBe(admin.id);
    expect(JSON.stringify(db.select().from(schema.apiTokens).all())).not.toContain(body.access_token);
  });

  it("answers 401 Invalid Credentials for a wrong password", async () => {
    const { res, body } = await tokenFor(admin.email, "wrong");
    expect(res.status).toBe(401);
    expect(body.message).toBe("Invalid Credentials");
  });

  it("answers 422 with the errors map for invalid input", async () => {
    const res = await responseOf(
      loginAction({ request: json("/api/v1/auth/login", { email: "not-an-email" }), context: ctx, params: {} }),
    );
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.errors.email).toEqual(["Email must be a valid email address."]);
    expect(body.errors.password).toEqual(["Password is required."]);
    expect(typeof body.message).toBe("string");
  });

  it("locks the account after repeated wrong passwords: 429 with a numeric Retry-After and {message}, even for the right password", async () => {
    const user = await makeUser("branch-staff", makeBranch().id);
    const from = (address: string, password: string) =>
      responseOf(
        loginAction({
          request: new Request("http://localhost/api/v1/auth/login", {
            method: "POST",
            headers: { "Content-Type": "application/json", [ADDRESS_HEADER]: address },
            body: JSON.stringify({ email: user.email, password }),
          }),
          context: ctx,
          params: {},
        }),
      );
    const allowed = LIMITS["login-account"].points;
    for (let i = 0; i < allowed; i++) expect((await from("10.3.9.1", `wrong-${i}`)).status).toBe(401);
    const tokensBefore = db.select().from(schema.apiTokens).where(eq(schema.apiTokens.user_id, user.id)).all().length;
    // The next try is refused, and so is the right password, from this address or another one.
    for (const [address, password] of [
      ["10.3.9.1", "wrong-again"],
      ["10.3.9.1", user.password],
      ["10.3.9.2", user.password],
    ]) {
      const res = await from(address, password);
      expect(res.status).toBe(429);
      const retryAfter = res.headers.get("Retry-After");
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThan(0);
      expect(Number(retryAfter)).toBeLessThanOrEqual(LIMITS["login-account"].duration);
      expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
      const body = await res.json();
      expect(body).toMatchObject({
        message: expect.stringMatching(/^Too many attempts\. Please try again in \d+ minute\(s\)\.$/),
      });
      expect(body.access_token).toBeUndefined();
    }
    expect(db.select().from(schema.apiTokens).where(eq(schema.apiTokens.user_id, user.id)).all()).toHaveLength(
      tokensBefore,
    );
  });

  it("remember_me gives a longer-lived token", async () => {
    const short = (await tokenFor(admin.email, admin.password)).body;
    const long = (await tokenFor(admin.email, admin.password, true)).body;
    expect(Date.parse(long.expires_at) - Date.parse(short.expires_at)).toBeGreaterThan(20 * 86400_000);
  });
});

describe("bearer tokens", () => {
  it("/auth/me answers the user of the token", async () => {
    const { body } = await tokenFor(staff.email, staff.password);
    const res = await responseOf(
      meAction({ request: json("/api/v1/auth/me", {}, body.access_token), context: ctx, params: {} }),
    );
    expect(res.status).toBe(200);
    const me = await res.json();
    expect(me.data.email).toBe(staff.email);
    expect(me.data.branch_id).toBe(staff.branch_id);
    expect(me).toHaveProperty("message");
  });

  it("401 without a token, with a made-up token, after logout and after expiry", async () => {
    expect(
      (await responseOf(meAction({ request: json("/api/v1/auth/me", {}), context: ctx, params: {} }))).status,
    ).toBe(401);
    expect(
      (await responseOf(meAction({ request: json("/api/v1/auth/me", {}, "made-up"), context: ctx, params: {} })))
        .status,
    ).toBe(401);

    const { body } = await tokenFor(staff.email, staff.password);
    const out = await responseOf(
      logoutAction({ request: json("/api/v1/auth/logout", {}, body.access_token), context: ctx, params: {} }),
    );
    expect(out.status).toBe(200);
    const after = await responseOf(
      meAction({ request: json("/api/v1/auth/me", {}, body.access_token), context: ctx, params: {} }),
    );
    expect(after.status).toBe(401);
    expect((await after.json()).message).toBe("Unauthenticated.");

    const other = (await tokenFor(staff.email, staff.password)).body.access_token;
    db.update(schema.apiTokens)
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where(eq(schema.apiTokens.token_hash, sha256(other)))
      .run();
    expect(
      (await responseOf(meAction({ request: json("/api/v1/auth/me", {}, other), context: ctx, params: {} }))).status,
    ).toBe(401);
  });

  it("403 for a permission-gated call without the permission, 200 with it", async () => {
    const staffToken = (await tokenFor(staff.email, staff.password)).body.access_token;
    const denied = await responseOf(
      rolesLoader({ request: get("/api/v1/role", staffToken), context: ctx, params: {} }),
    );
    expect(denied.status).toBe(403);
    expect((await denied.json()).message).toBe("This action is unauthorized.");
    const adminToken = (await tokenFor(admin.email, admin.password)).body.access_token;
    const ok = await responseOf(rolesLoader({ request: get("/api/v1/role", adminToken), context: ctx, params: {} }));
    expect(ok.status).toBe(200);
    const roles = (await ok.json()).data as { slug: string; permissions: string[] }[];
    expect(roles.map((r) => r.slug)).toEqual(expect.arrayContaining(["super-admin", "branch-manager", "branch-staff"]));
  });

  it("GET /api/v1/settings is public and answers {data, message}", async () => {
    const res = await responseOf(settingsLoader());
    const body = await res.json();
    expect(body.data).toHaveProperty("scheme");
    expect(body.data).toHaveProperty("logo");
    expect(body.data.registration_open).toBe(true);
  });
});
