/**
 * Staff authentication and the one permission helper of the back office.
 * Every admin loader and action calls `requireRouteAccess` with the permission
 * its route module declares, or `requirePermission` for a named permission.
 */
import { redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { getSessionUser, verifyLogin, type SessionUser } from "~/models/user.server";
import { scopeOf, type Scope } from "~/models/scope.server";
import { config } from "./config.server";
import { can, permissionRefusal, type Permission } from "./permissions";
import { clear, hit, isBlocked, tooManyMessage } from "./rate-limit.server";
import { getSession, sessionStorage } from "./session.server";
import { oops, redirectWithToast } from "./toast.server";

export class LoginError extends Error {}

export const authenticator = new Authenticator<SessionUser>();

const ADDRESS_HEADER = "x-campaign-client-address";

/**
 * The login request for the strategy, carrying the client address from the load
 * context (any such header sent by the client is overwritten).
 */
export async function withClientAddress(request: Request, address: string): Promise<Request> {
  const headers = new Headers(request.headers);
  headers.set(ADDRESS_HEADER, address);
  return new Request(request.url, { method: request.method, headers, body: await request.arrayBuffer() });
}

authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    return checkCredentials(email, password, request.headers.get(ADDRESS_HEADER) ?? "unknown");
  }),
  "form",
);

/** Credentials check shared by the login page and POST /api/v1/auth/login, rate limited per address and account. */
export async function checkCredentials(email: string, password: string, address: string): Promise<SessionUser> {
  const byAddress = await hit("login-ip", address);
  if (!byAddress.ok) throw new LoginError(tooManyMessage(byAddress.retryAfterSeconds));
  const byAccount = await isBlocked("login-account", email);
  if (!byAccount.ok) throw new LoginError(tooManyMessage(byAccount.retryAfterSeconds));
  const user = email && password ? await verifyLogin(email, password) : null;
  if (!user) {
    await hit("login-account", email);
    throw new LoginError("Invalid Credentials");
  }
  await clear("login-account", email);
  return user;
}

/** Starts a session for a signed-in user and redirects. */
export async function createUserSession(request: Request, user: SessionUser, remember: boolean, to: string) {
  const session = await getSession(request);
  // A fresh session id on every login (no fixation).
  await sessionStorage.destroySession(session);
  const fresh = await sessionStorage.getSession();
  fresh.set("userId", user.id);
  fresh.set("remember", remember);
  const expires = new Date(Date.now() + (remember ? config.rememberDays * 86400_000 : config.sessionHours * 3600_000));
  return redirect(to, {
    headers: {
      "Set-Cookie": await sessionStorage.commitSession(fresh, remember ? { expires } : { expires: undefined }),
    },
  });
}

export async function logout(request: Request) {
  const session = await getSession(request);
  return redirect("/login", { headers: { "Set-Cookie": await sessionStorage.destroySession(session) } });
}

export async function getOptionalUser(request: Request): Promise<SessionUser | null> {
  const session = await getSession(request);
  const id = session.get("userId");
  return id ? getSessionUser(id) : null;
}

/** Only local paths are followed after login. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/admin"): string {
  if (!to || typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) {
    return fallback;
  }
  return to;
}

export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getOptionalUser(request);
  if (!user) {
    const url = new URL(request.url);
    const back = url.pathname + url.search;
    throw redirect(`/login?redirectTo=${encodeURIComponent(back)}`);
  }
  return user;
}

export type Staff = SessionUser & { scope: Scope };

/** Login plus a named permission: anonymous → /login, missing permission → /admin, with a toast that says why. */
export async function requirePermission(request: Request, permission: Permission | null): Promise<Staff> {
  const user = await requireUser(request);
  if (permission !== null && !can(user, permission)) {
    throw await redirectWithToast("/admin", oops(permissionRefusal(permission)));
  }
  return { ...user, scope: scopeOf(user) };
}

/**
 * What a back-office route module declares it needs (`export const handle`):
 * a permission, or null for login only. The key is required, so a module
 * cannot leave it out by accident; tests/unit/route-table.test.ts checks every
 * module against the specification's table.
 */
export type RouteAccess = { permission: Permission | null };

/**
 * Login plus the permission the matched route module declares. The request's
 * URL text plays no part: the router has already chosen the module (whatever
 * the letter case or encoding), and the module answers with its own rule.
 */
export async function requireRouteAccess(request: Request, access: RouteAccess): Promise<Staff> {
  return requirePermission(request, access.permission);
}
