/**
 * Back-office sessions: a cookie (httpOnly, SameSite=Lax, Secure in production)
 * carrying a random id whose sha256 keys a row in `sessions`, so signing out or
 * deleting a user ends the session on the server too. Over HTTPS it is named
 * `__Host-session`: the browser then keeps it only when Secure, Path=/ and without
 * Domain, so no other host (a subdomain) can set or shadow it.
 */
import { createCookie, createSessionStorage } from "@remix-run/node";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import { db, schema } from "@db/index";
import { prepared } from "@db/prepared";
import { config, secureCookies, sessionSecrets } from "~/utils/config.server";
import { SESSION_COOKIE } from "./cookie-name.server";
import { randomToken, sha256 } from "~/utils/crypto.server";
import { nowIso } from "~/utils/time";

export const sessionCookie = createCookie(SESSION_COOKIE, {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure: secureCookies,
  secrets: sessionSecrets(),
});

type SessionData = { userId?: number; remember?: boolean; returnTo?: string };

function expiry(expires: Date | undefined): string {
  return (expires ?? new Date(Date.now() + config.sessionHours * 3600_000)).toISOString();
}

// Read on every back-office request: built and compiled once.
const liveSession = prepared((q) =>
  q
    .select({ data: schema.sessions.data })
    .from(schema.sessions)
    .where(and(eq(schema.sessions.id, sql.placeholder("id")), gt(schema.sessions.expires_at, sql.placeholder("now"))))
    .prepare(),
);

export const sessionStorage = createSessionStorage<SessionData>({
  cookie: sessionCookie,
  async createData(data, expires) {
    const id = randomToken(32);
    db.insert(schema.sessions)
      .values({
        id: sha256(id),
        user_id: data.userId ?? null,
        remember: Boolean(data.remember),
        data: JSON.stringify(data),
        expires_at: expiry(expires),
      })
      .run();
    return id;
  },
  async readData(id) {
    const row = liveSession(db).get({ id: sha256(id), now: nowIso() });
    return row ? (JSON.parse(row.data) as SessionData) : null;
  },
  async updateData(id, data, expires) {
    db.update(schema.sessions)
      .set({
        data: JSON.stringify(data),
        user_id: data.userId ?? null,
        remember: Boolean(data.remember),
        expires_at: expiry(expires),
      })
      .where(eq(schema.sessions.id, sha256(id)))
      .run();
  },
  async deleteData(id) {
    db.delete(schema.sessions)
      .where(eq(schema.sessions.id, sha256(id)))
      .run();
  },
});

/**
 * A new session for a user who has just signed in (a fresh id, so no fixation): its Set-Cookie
 * header, lasting the browser session, or `config.rememberDays` with Remember Me.
 */
export async function startSession(userId: number, remember: boolean): Promise<string> {
  const session = await sessionStorage.getSession();
  session.set("userId", userId);
  session.set("remember", remember);
  const expires = new Date(Date.now() + (remember ? config.rememberDays * 86400_000 : config.sessionHours * 3600_000));
  return sessionStorage.commitSession(session, remember ? { expires } : { expires: undefined });
}

export function getSession(request: Request) {
  return sessionStorage.getSession(request.headers.get("Cookie"));
}

/** The stored key (sha256 of the cookie's id) of the request's session, if it has one. */
export async function currentSessionHash(request: Request): Promise<string | undefined> {
  const session = await getSession(request);
  return session.id ? sha256(session.id) : undefined;
}

export function purgeExpiredSessions() {
  db.delete(schema.sessions).where(lt(schema.sessions.expires_at, nowIso())).run();
}
