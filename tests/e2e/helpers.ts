/** Shared end-to-end helpers: demo logins, reading the SMS outbox of the test server's database. */
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import Database from "better-sqlite3";
import { sessionFor } from "./data";
import { dbFile, port } from "./server";

export { dbFile, port };

/**
 * The header a browser sends with its own form posts and fetches: a signed-in request made by hand
 * (Playwright's `page.request`) names this site as its origin, as the page itself would.
 */
export const SAME_SITE = { Origin: `http://localhost:${port}` };

export const PASSWORD = "Demo@12345";
export const USERS = {
  admin: "admin@demo.test", // Super Admin, no branch (head office)
  manager: "manager@demo.test", // Branch Manager at branch 1 (Kathmandu Central)
  staff: "staff@demo.test", // Branch Staff at branch 2 (Lalitpur Motors)
  nobody: "nobody@demo.test", // a role with no permission, branch 2
} as const;

/** Read-only access to the running server's database (for codes sent to the outbox and assertions). */
export function readDb<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** The newest SMS sent to a phone, optionally of one purpose. */
export function lastSms(phone: string, purpose?: string): { text: string; purpose: string } | undefined {
  return readDb((db) =>
    db
      .prepare(
        `select text, purpose from sms_messages where "to" = ? ${purpose ? "and purpose = ?" : ""} order by id desc limit 1`,
      )
      .get(...(purpose ? [phone, purpose] : [phone])),
  ) as { text: string; purpose: string } | undefined;
}

/** The 6-digit code in the newest SMS to a phone. */
export function lastCode(phone: string, purpose?: string): string {
  const sms = lastSms(phone, purpose);
  const code = sms?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`No code sent to ${phone}`);
  return code;
}

/**
 * Signs a demo user in as a sign-in leaves them (as the Epic Stack's login fixture does): their session
 * row in the database and its signed cookie in the browser, then `to` (the dashboard) opened. The tests
 * about signing in itself use `loginThroughForm`.
 */
export async function login(page: Page, email: string, { to = "/admin" }: { to?: string } = {}) {
  const value = await sessionFor(email);
  await page.context().addCookies([{ name: "__session", value, url: `http://localhost:${port}`, httpOnly: true }]);
  await page.goto(to);
  await expect(page).not.toHaveURL(/\/login/);
}

/** Signs in through the login form, as staff do. */
export async function loginThroughForm(
  page: Page,
  email: string,
  { remember = false, to }: { remember?: boolean; to?: string } = {},
) {
  await page.goto(to ? `/login?redirectTo=${encodeURIComponent(to)}` : "/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Password\b/).fill(PASSWORD);
  if (remember) await page.getByLabel("Remember Me").check();
  await page.getByRole("button", { name: /Login|Logging in/ }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await page.waitForLoadState(); // the page signed in to, parsed whole (the URL changes when it starts to arrive)
}

/** A bearer token for the JSON API. */
export async function apiToken(request: APIRequestContext, email: string): Promise<string> {
  const res = await request.post("/api/v1/auth/login", { data: { email, password: PASSWORD } });
  expect(res.status()).toBe(200);
  return (await res.json()).access_token;
}

export const isJs = (projectName: string) => projectName === "js";
