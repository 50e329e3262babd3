// The security headers of the built server (issue 9 §4), the public pages' scripts running
// under its Content-Security-Policy, and a refused cross-site form shown in the site's frame.
import { expect, test, type APIResponse, type Page } from "@playwright/test";
import { spawn } from "node:child_process";
import fs from "node:fs";
import net, { type AddressInfo } from "node:net";
import path from "node:path";
import { apiToken, login, PASSWORD, USERS } from "./helpers";
import { enterCode, fillPreregistration, lastCode, newVisitor, saveAndConfirm } from "./public-helpers";

/** The policy as a map of directive to its sources. */
const policy = (header: string | undefined) =>
  new Map(
    (header ?? "")
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name, values]),
  );

/** What every answer carries, whatever it is. */
function expectCommonHeaders(h: Record<string, string>, where: string) {
  expect(h["permissions-policy"], where).toBe("camera=(), microphone=(), geolocation=(), payment=(), usb=()");
  expect(h["x-content-type-options"], where).toBe("nosniff");
  expect(h["referrer-policy"], where).toBe("same-origin");
  expect(h["cross-origin-resource-policy"], where).toBe("same-origin");
  expect(policy(h["content-security-policy"]).get("frame-ancestors"), where).toEqual(["'none'"]);
  expect(h["x-powered-by"], where).toBeUndefined();
  expect(h["server"], where).toBeUndefined();
  // Plain http here (COOKIE_SECURE=false): no HSTS.
  expect(h["strict-transport-security"], where).toBeUndefined();
}

/** A page's policy: scripts by this request's nonce or from this site, never 'unsafe-inline'; every inline script carries the nonce. */
async function expectDocumentPolicy(res: APIResponse, where: string) {
  const h = res.headers();
  expectCommonHeaders(h, where);
  const csp = policy(h["content-security-policy"]);
  const scriptSrc = csp.get("script-src") ?? [];
  expect(scriptSrc, where).not.toContain("'unsafe-inline'");
  expect(scriptSrc.join(" "), where).not.toContain("google"); // no captcha configured in this run
  const nonce = scriptSrc.find((s) => s.startsWith("'nonce-"))?.slice(7, -1);
  expect(nonce, where).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  expect(csp.get("object-src"), where).toEqual(["'none'"]);
  expect(csp.get("base-uri"), where).toEqual(["'self'"]);
  expect(csp.get("form-action"), where).toEqual(["'self'"]);
  expect(h["x-frame-options"], where).toBe("DENY");
  const html = await res.text();
  const inline = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]).filter((attrs) => !/\bsrc=/.test(attrs));
  expect(inline.length, where).toBeGreaterThan(0);
  for (const attrs of inline) expect(attrs, where).toContain(`nonce="${nonce}"`);
  return nonce!;
}

test.describe("over HTTP", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "HTTP only: one run is enough");

  test("a public page, a back-office page, API answers, a download and static files carry the headers", async ({
    playwright,
    request,
    baseURL,
  }) => {
    await expectDocumentPolicy(await request.get("/"), "/");
    // A fresh nonce per request of a page rendered for each visitor (the landing page and the
    // pre-registration form may be kept ones, sent with the nonce they were rendered with).
    await expectDocumentPolicy(await request.get("/enquiry"), "/enquiry");
    const first = await expectDocumentPolicy(await request.get("/book-a-ride"), "/book-a-ride");
    expect(await expectDocumentPolicy(await request.get("/book-a-ride"), "/book-a-ride again")).not.toBe(first);

    const admin = await playwright.request.newContext({ baseURL, maxRedirects: 0 });
    const signIn = await admin.post("/login", {
      form: { email: USERS.admin, password: PASSWORD, redirectTo: "/admin" },
      headers: { Origin: baseURL! },
    });
    expect(signIn.status()).toBe(302);
    await expectDocumentPolicy(await admin.get("/admin"), "/admin");
    await expectDocumentPolicy(await admin.get("/admin/registration"), "/admin/registration");

    // Anything but a document: the short policy that runs nothing.
    const token = await apiToken(request, USERS.admin);
    const css = /href="(\/assets\/[^"]+\.css)"/.exec(await (await request.get("/")).text())![1];
    const others: [string, APIResponse][] = [
      ["API JSON", await request.get("/api/v1/branches")],
      [
        "API JSON with a token",
        await request.get("/api/v1/registration", { headers: { Authorization: `Bearer ${token}` } }),
      ],
      [
        "a download",
        await request.get("/api/v1/registration/download", { headers: { Authorization: `Bearer ${token}` } }),
      ],
      ["a static asset", await request.get(css)],
      ["a public file", await request.get("/favicon.ico")],
      [
        "a refusal of server.js",
        await request.post("/api/v1/auth/login", {
          data: { email: "x", password: "y" },
          headers: { Origin: "https://evil.example" },
        }),
      ],
    ];
    for (const [where, res] of others) {
      expect(res.headers()["content-type"] ?? "", where).not.toContain("text/html");
      expectCommonHeaders(res.headers(), where);
      expect(res.headers()["content-security-policy"], where).toBe("default-src 'none';frame-ancestors 'none'");
    }
    expect(others[2][1].status()).toBe(200);
    expect(others[5][1].status()).toBe(403);
  });

  test("over plain http the cookies keep their plain names (no __Host- without Secure)", async ({
    playwright,
    baseURL,
  }) => {
    const ctx = await playwright.request.newContext({ baseURL, maxRedirects: 0 });
    const lang = await ctx.get("/language?lang=ne&redirectTo=/");
    expect(lang.headers()["set-cookie"]).toMatch(/^lang=ne; Path=\/;/);
    expect(lang.headers()["set-cookie"]).not.toContain("Secure");
    const res = await ctx.post("/login", {
      form: { email: USERS.admin, password: PASSWORD, redirectTo: "/admin" },
      headers: { Origin: baseURL! },
    });
    expect(res.headers()["set-cookie"]).toMatch(/^__session=/);
  });
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** Runs a command to its end; rejects with its output when it fails. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} failed:\n${out}`))));
  });
}

test.describe("in production over HTTPS", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "HTTP only: one run is enough");

  test("HSTS, __Host- cookies (Secure, Path=/, no Domain) and reCAPTCHA's hosts when it is configured", async () => {
    // The demo seed's draws wait for the demonstration beacon's rounds: about a minute and a half of
    // waiting (little CPU) on a busy machine, before the server starts.
    test.setTimeout(240_000);
    // A second server of the same build, as production runs it (Secure cookies, a captcha key),
    // reached over plain http here: the headers and cookie attributes are what matter.
    const port = await freePort();
    const dataDir = path.resolve(`tests/.tmp/e2e-https-${port}`);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
      DATA_DIR: dataDir,
      DATABASE_URL: `file:${dataDir}/app.sqlite`,
      SESSION_SECRET: "e2e-https-secret",
      COOKIE_SECURE: "true",
      NODE_ENV: "production",
    };
    const captcha = {
      RECAPTCHA_SITE_KEY: "e2e-site-key",
      RECAPTCHA_SECRET: "e2e-secret",
      RECAPTCHA_VERIFY_URL: "http://127.0.0.1:9/never",
    };
    let server: ReturnType<typeof spawn> | undefined;
    const base = `http://127.0.0.1:${port}`;
    try {
      await run("node_modules/.bin/tsx", ["tests/e2e/prepare-db.ts"], { ...env, E2E_PREPARE: "1" });
      server = spawn("node", ["server.js"], { env: { ...env, ...captcha }, stdio: "ignore" });
      for (let i = 0; ; i++) {
        const up = await fetch(`${base}/login`).then(
          (r) => r.ok,
          () => false,
        );
        if (up) break;
        if (i > 100) throw new Error("the second server did not start");
        await new Promise((r) => setTimeout(r, 200));
      }
      for (const p of ["/", "/admin", "/api/v1/branches", "/favicon.ico"]) {
        const res = await fetch(base + p, { redirect: "manual" });
        expect(res.headers.get("strict-transport-security"), p).toBe("max-age=31536000; includeSubDomains");
      }
      const csp = policy((await fetch(`${base}/`)).headers.get("content-security-policy") ?? "");
      expect(csp.get("script-src")).toEqual(
        expect.arrayContaining(["'self'", "https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"]),
      );
      expect(csp.get("script-src")).not.toContain("'unsafe-inline'");
      expect(csp.get("frame-src")).toEqual([
        "https://www.google.com/recaptcha/",
        "https://recaptcha.google.com/recaptcha/",
      ]);
      expect(csp.has("upgrade-insecure-requests")).toBe(true);

      const cookies = [
        ...(await fetch(`${base}/language?lang=ne&redirectTo=/`, { redirect: "manual" })).headers.getSetCookie(),
        ...(
          await fetch(`${base}/login`, {
            method: "POST",
            redirect: "manual",
            headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
            body: new URLSearchParams({ email: USERS.admin, password: PASSWORD, redirectTo: "/admin" }),
          })
        ).headers.getSetCookie(),
      ];
      const names = cookies.map((c) => c.split("=")[0]);
      expect(names).toEqual(expect.arrayContaining(["__Host-lang", "__Host-session"]));
      for (const cookie of cookies) {
        expect(cookie).toMatch(/^__Host-/);
        expect(cookie).toMatch(/; Secure/i);
        expect(cookie).toMatch(/; Path=\/(;|$)/i);
        expect(cookie).not.toMatch(/; Domain=/i);
      }
    } finally {
      if (server && server.exitCode === null) {
        server.kill("SIGTERM");
        await new Promise((r) => server!.once("exit", r));
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** Collects the page's CSP violations (the event and the console's report). */
async function watchPolicy(page: Page) {
  const violations: string[] = [];
  await page.exposeFunction("__reportCspViolation", (v: string) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { __reportCspViolation: (v: string) => void }).__reportCspViolation(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`,
      );
    });
  });
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  return violations;
}

test.describe("the public pages' scripts under the policy", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the scripts need JavaScript");

  test("every enhancement runs, in the page and in a dialog, with no violation", async ({ page }) => {
    const violations = await watchPolicy(page);
    await page.goto("/enquiry");
    await expect(page.locator("html")).toHaveClass(/\bjs\b/);
    await expect(page.locator("form[data-prereg]")).toHaveAttribute("data-ready", "");
    // Typing filters.
    const phone = page.locator("form[data-prereg]").getByLabel(/^Phone Number/);
    await phone.pressSequentially("98a4-1९");
    await expect(phone).toHaveValue("98419");
    await phone.fill("");

    await page.goto("/");
    // A modal link opens its page in a dialog, and that page's script runs there.
    await page.getByRole("link", { name: "Book a Ride" }).click();
    const dialog = page.getByRole("dialog", { name: "Book a Ride" });
    await expect(dialog).toBeVisible();
    await expect(dialog.locator("form[data-cascade]")).toHaveAttribute("data-ready", "");
    await dialog.getByLabel("Province").selectOption("Gandaki");
    await expect(dialog.getByLabel("District").locator("option").nth(1)).toHaveText("Kaski");
    await expect(dialog.getByLabel("District").locator("option")).toHaveCount(2);
    // Closing goes back in history: wait for it, so it cannot interrupt the next navigation.
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/$/);

    await page.goto("/showrooms");
    await expect(page.locator("html")).toHaveClass(/\bjs\b/);

    // Pre-register, the confirmation dialog, the verify page's countdown, the draw's reveal.
    const visitor = newVisitor();
    await page.goto("/enquiry");
    await fillPreregistration(page, visitor);
    await saveAndConfirm(page, visitor);
    await expect(page.locator("form[data-verify]")).toHaveAttribute("data-ready", "");
    await expect(page.getByRole("button", { name: "Resend code" })).toBeDisabled();
    await enterCode(page, lastCode(visitor.phone));
    await expect(page.locator("[data-draw-reveal]")).toHaveAttribute("data-started", "1");

    expect(violations).toEqual([]);
  });

  test("the back office runs its bundle under the policy", async ({ page }) => {
    const violations = await watchPolicy(page);
    await login(page, USERS.admin);
    await page.goto("/admin/registration");
    await expect.poll(() => page.evaluate(() => "__remixContext" in window)).toBe(true);
    await page.getByRole("link", { name: "Pre-Registrations" }).first().click();
    await expect(page).toHaveURL(/\/admin\/preregistration/);
    expect(violations).toEqual([]);
  });
});

test.describe("a cross-site form post", () => {
  /** A page of another site with a form posting to this one. */
  async function foreignForm(page: Page, action: string) {
    await page.route("http://evil.example/**", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><form method="post" action="${action}"><input name="name" value="x"><button>Send</button></form>`,
      }),
    );
    await page.goto("http://evil.example/");
    const answer = page.waitForResponse((r) => r.url().startsWith(new URL(action).origin));
    await page.getByRole("button", { name: "Send" }).click();
    return answer;
  }

  test("gets the 403 page with the reason, in the public frame", async ({ page, baseURL }) => {
    const res = await foreignForm(page, `${baseURL}/enquiry`);
    expect(res.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
    await expect(page.getByText("This form was sent from another site, so it was not accepted.")).toBeVisible();
    await expect(page.locator(".pub-head")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Language" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Go to the home page" })).toBeVisible();
  });

  test("gets the 403 page with the reason, in the back-office frame", async ({ page, baseURL }) => {
    const res = await foreignForm(page, `${baseURL}/admin/scheme/create`);
    expect(res.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
    await expect(page.getByText("This form was sent from another site, so it was not accepted.")).toBeVisible();
    await expect(page.locator(".sidebar")).toContainText("Thrill Back Office");
    await expect(page.getByRole("link", { name: "Go to the back office" })).toBeVisible();
  });
});
