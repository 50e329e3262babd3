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
import { can, permissionRefusal, type Requirement } from "~/utils/permissions";
import { audit } from "~/models/audit.server";
import { fail, type Failure } from "~/utils/failure";
import { transact } from "~/models/transaction.server";
import { clear, take } from "~/utils/rate-limit.server";
import { getSession, sessionStorage, startSession } from "./session.server";
import { readForm } from "./body.server";
import { readIntent } from "./http.server";
import { oops, redirectWithToast } from "./toast.server";

/** A refused login; `failure` says why (wrong credentials, or too many attempts). */
export class LoginError extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
  }
}

export const authenticator = new Authenticator<SessionUser>();

/** The client address that server.js sets on every request (any value sent by the client is replaced). */
export const ADDRESS_HEADER = "x-campaign-client-address";

export function clientAddress(request: Request): string {
  return request.headers.get(ADDRESS_HEADER) ?? "unknown";
}

authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    const result = await checkCredentials(email, password, clientAddress(request));
    if (!result.ok) throw new LoginError(result);
    return result.user;
  }),
  "form",
);

export const INVALID_CREDENTIALS = "Invalid Credentials";

/**
 * The credentials check of the login page and POST /api/v1/auth/login. A point
 * is taken from the address's and the account's limits before the password is
 * looked at (one atomic step each), so N parallel tries cost N points; a right
 * password clears the account's count. Logins and failed logins are audited.
 */
export async function checkCredentials(
  email: string,
  password: string,
  address: string,
): Promise<{ ok: true; user: SessionUser } | Failure> {
  const account = email.trim().toLowerCase();
  const limited = transact((tx) => {
    const byAddress = take(tx, "login-ip", address);
    if (!byAddress.ok) return fail.rateLimited(byAddress.retryAfterSeconds);
    const byAccount = take(tx, "login-account", account || "(empty)");
    if (!byAccount.ok) {
      audit(
        tx,
        { id: null, email: account, address },
        { action: "auth.login_locked", entityType: "user", entityId: account },
      );
      return fail.rateLimited(byAccount.retryAfterSeconds);
    }
    return null;
  });
  if (limited) return limited;
  const user = email && password ? await verifyLogin(email, password) : null;
  transact((tx) => {
    if (user) {
      clear(tx, "login-account", account);
      audit(
        tx,
        { id: user.id, email: user.email, address },
        { action: "auth.login", entityType: "user", entityId: user.slug },
      );
    } else {
      audit(
        tx,
        { id: null, email: account, address },
        { action: "auth.login_failed", entityType: "user", entityId: account },
      );
    }
  });
  return user ? { ok: true, user } : fail.unauthenticated(INVALID_CREDENTIALS);
}

/** Starts a session for a signed-in user and redirects. */
export async function createUserSession(request: Request, user: SessionUser, remember: boolean, to: string) {
  // The old session ends; the new one has a fresh id (no fixation).
  await sessionStorage.destroySession(await getSession(request));
  return redirect(to, { headers: { "Set-Cookie": await startSession(user.id, remember) } });
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

export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getOptionalUser(request);
  if (!user) {
    const url = new URL(request.url);
    const back = url.pathname + url.search;
    throw redirect(`/login?redirectTo=${encodeURIComponent(back)}`);
  }
  return user;
}

/** A signed-in staff member as the models see them: who (the audit's actor), where from, and their branch scope. */
export type Staff = SessionUser & { scope: Scope; address: string };

/** Login plus a named permission: anonymous → /login, missing permission → /admin, with a toast that says why. */
export async function requirePermission(request: Request, permission: Requirement): Promise<Staff> {
  const user = await requireUser(request);
  if (permission !== null && !can(user, permission)) {
    throw await redirectWithToast("/admin", oops(permissionRefusal(permission)));
  }
  return { ...user, scope: scopeOf(user), address: clientAddress(request) };
}

/**
 * What a back-office route module declares it needs (`export const handle`):
 * a permission, or null for login only. The key is required, so a module
 * cannot leave it out by accident; tests/integration/route-table.test.ts checks every
 * module against the specification's table.
 */
export type RouteAccess = { permission: Requirement; intents?: Intents };

/**
 * The intents a route's action accepts, each with the permission it needs
 * beyond the route's own (null: the route's permission is enough).
 * tests/integration/route-table.test.ts posts every module an unknown intent (400)
 * and each intent as a user holding only the route's permission.
 */
export type Intents = Readonly<Record<string, Requirement>>;

/**
 * Login plus the permission the matched route module declares. The request's
 * URL text plays no part: the router has already chosen the module (whatever
 * the letter case or encoding), and the module answers with its own rule.
 */
export async function requireRouteAccess(request: Request, access: RouteAccess): Promise<Staff> {
  return requirePermission(request, access.permission);
}

/**
 * An action's login and its route's permission, then its form (read only
 * once those hold; `limit` as readForm's), its intent (`readIntent`: one the
 * route's `handle.intents` lists, else 400; `fallback` when the form names
 * none) and the permission that intent names. Returns the intent, the form
 * and the staff user to act as.
 */
export async function requireIntent<I extends string>(
  request: Request,
  access: { permission: Requirement; intents: Readonly<Record<I, Requirement>> },
  { fallback, limit }: { fallback?: NoInfer<I>; limit?: number } = {},
): Promise<{ intent: I; form: FormData; staff: Staff }> {
  const staff = await requirePermission(request, access.permission);
  const form = await readForm(request, limit === undefined ? {} : { limit });
  const intent = readIntent(form, access.intents, fallback);
  const needs = access.intents[intent];
  const actor = needs && needs !== access.permission ? await requirePermission(request, needs) : staff;
  return { intent, form, staff: actor };
}
