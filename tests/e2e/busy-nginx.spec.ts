/**
 * The busy answer with nginx in front (deploy/nginx/campaign.conf, as tests/nginx-site.ts runs it): one server
 * process (node server.js, the build, Secure cookies behind nginx as in production) driven past its bound
 * (ADMISSION_IN_FLIGHT=2, held by two uploads sent straight to it whose bodies do not come;
 * ADMISSION_LOOP_BUSY=0). Through nginx a new landing gets the busy page at once in its language (503,
 * Retry-After), in Chromium with JavaScript and without, and runs no SQLite statement (tests/statement-probe.mjs);
 * a visitor in a journey and staff are served. With the app not answering, nginx serves the same page itself,
 * sends a POST to the app once only, and the assets keep coming from nginx. Without nginx:
 * tests/integration/admission.test.ts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { PASSWORD } from "./helpers";
import { freePort } from "../free-port";
import { askStatements } from "../integration/server-process";
import { NGINX, SITE_SERVERNAME, selfSignedCertificate, startNginx, writeNginxSite } from "../nginx-site";

const root = process.cwd();
const buildDir = process.env.BUILD_DIR ?? "build";
const dir = path.join(os.tmpdir(), `busy-${process.pid}`);
const e2eDatabase = path.join(root, "tests", ".tmp", `e2e-${process.env.E2E_PORT ?? 4173}`, "app.sqlite");
const children: ChildProcess[] = [];
let app: ChildProcess;
let appPort = 0;
let httpsPort = 0;

const BUSY_NE = "तपाईंको अवसर गुमेको छैन: एक मिनेटपछि फेरि प्रयास गर्नुहोस्।";
const BUSY_EN = "Your place is not lost: try again in a minute.";
const busyJson = () => JSON.parse(fs.readFileSync(path.join(root, buildDir, "client", "busy", "api.json"), "utf8"));

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string; probe: string };
let probes = 0;

/** An HTTPS request to nginx on `port`, with its own statement probe id. */
function viaNginx(
  method: string,
  pathname: string,
  { headers = {}, body, port = httpsPort }: { headers?: Record<string, string>; body?: string; port?: number } = {},
): Promise<Answer> {
  const probe = `busy-${++probes}`;
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: "127.0.0.1",
        port,
        servername: SITE_SERVERNAME,
        method,
        path: pathname,
        rejectUnauthorized: false,
        agent: false,
        headers: {
          Host: "localhost",
          "X-Statement-Probe": probe,
          ...(body ? { "Content-Length": String(Buffer.byteLength(body)) } : {}),
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, probe }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const json = (value: unknown, headers: Record<string, string> = {}) => ({
  headers: { "Content-Type": "application/json", ...headers },
  body: JSON.stringify(value),
});

const cookieOf = (answer: Answer, name: string) =>
  ([] as string[])
    .concat(answer.headers["set-cookie"] ?? [])
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith(`${name}=`));

/** A POST sent straight to the app whose body never comes: the app has taken it and holds it in flight. */
function held() {
  const req = http.request(`http://127.0.0.1:${appPort}/api/v1/enquiry`, {
    method: "POST",
    agent: false,
    headers: { "Content-Type": "application/json", "Content-Length": "100", Expect: "100-continue" },
  });
  req.on("error", () => undefined);
  req.on("response", (res) => res.resume());
  const accepted = new Promise<void>((resolve) => req.on("continue", () => resolve()));
  req.flushHeaders();
  return { accepted, release: () => req.destroy() };
}

/** nginx with the site in its own folder, in front of `upstream`; its HTTPS port. */
async function siteInFront(folder: string, upstream: number): Promise<number> {
  fs.mkdirSync(folder, { recursive: true });
  selfSignedCertificate(folder);
  const port = await freePort();
  const main = writeNginxSite({
    root,
    buildDir,
    dir: folder,
    appPort: upstream,
    httpsPort: port,
    httpPort: await freePort(),
  });
  children.push(startNginx(main));
  await until(async () => (await viaNginx("GET", "/assets/", { port })).status > 0, "nginx");
  return port;
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  if (!fs.existsSync(NGINX)) {
    test.skip(!process.env.CI, `nginx is not installed at ${NGINX} (bash tests/ensure-nginx.sh)`);
    throw new Error(`nginx is missing at ${NGINX}`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, "data"), { recursive: true });
  const source = new Database(e2eDatabase, { readonly: true });
  await source.backup(path.join(dir, "data", "app.sqlite"));
  source.close();
  const copy = new Database(path.join(dir, "data", "app.sqlite"));
  copy.prepare("delete from rate_limit_counters").run();
  copy.close();

  appPort = await freePort();
  app = spawn(process.execPath, ["--import", path.join(root, "tests", "statement-probe.mjs"), "server.js"], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(appPort),
      BUILD_DIR: buildDir,
      DATA_DIR: path.join(dir, "data"),
      DATABASE_URL: `file:${path.join(dir, "data", "app.sqlite")}`,
      SESSION_SECRET: "busy-secret",
      // As in production behind nginx (deploy/systemd/campaign.service).
      TRUST_PROXY: "loopback",
      COOKIE_SECURE: "true",
      SMS_PROVIDER: "outbox",
      ADMISSION_IN_FLIGHT: "2",
      ADMISSION_LOOP_BUSY: "0",
    },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  children.push(app);
  await until(async () => (await fetch(`http://127.0.0.1:${appPort}/login`)).ok, "the app");
  httpsPort = await siteInFront(path.join(dir, "site"), appPort);
});

test.afterAll(async () => {
  for (const child of children.reverse()) {
    if (child.exitCode === null) child.kill("SIGTERM");
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

test("past the bound, through nginx: a new landing gets the busy page in its language at once, reading nothing; a journey and staff are served", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const signIn = await viaNginx("POST", "/login", {
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: "admin@demo.test", password: PASSWORD, redirectTo: "/admin" }).toString(),
  });
  const session = cookieOf(signIn, "__Host-session");
  expect(session).toBeTruthy();
  const apiLogin = await viaNginx("POST", "/api/v1/auth/login", json({ email: "admin@demo.test", password: PASSWORD }));
  const token = JSON.parse(apiLogin.body).access_token as string;
  const phone = "9841000002";
  const asked = await viaNginx("POST", "/api/v1/enquiry/continue", json({ phone }));
  expect(asked.status).toBe(200);
  const journey = cookieOf(asked, "__Host-journey");
  expect(journey).toBeTruthy();

  const holds = [held(), held()];
  await Promise.all(holds.map((h) => h.accepted));
  try {
    const landing = await viaNginx("GET", "/", { headers: { "Accept-Language": "ne-NP,ne;q=0.9,en;q=0.8" } });
    expect(landing.status).toBe(503);
    expect(landing.headers["retry-after"]).toBe("60");
    expect(landing.body).toContain(BUSY_NE);
    expect(await askStatements(app, landing.probe)).toBe(0);
    const form = await viaNginx("POST", "/api/v1/enquiry", json({ name: "New" }));
    expect([form.status, form.headers["retry-after"]]).toEqual([503, "60"]);
    expect(JSON.parse(form.body)).toEqual(busyJson());
    expect(await askStatements(app, form.probe)).toBe(0);
    const forged = await viaNginx("GET", "/admin", {
      headers: { Cookie: `__Host-session=${session!.split("=")[1].slice(0, -4)}AAAA` },
    });
    expect(forged.status).toBe(503);
    expect(await askStatements(app, forged.probe)).toBe(0);

    const check = await viaNginx(
      "POST",
      "/api/v1/enquiry/continue/verify",
      json({ phone, code: "000000" }, { Cookie: journey! }),
    );
    expect(check.status).toBe(422);
    expect(await askStatements(app, check.probe)).toBeGreaterThan(0);
    expect((await viaNginx("GET", "/admin", { headers: { Cookie: session! } })).status).toBe(200);
    expect((await viaNginx("GET", "/api/v1/user", { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);

    // What a phone shows, with JavaScript and without, in Nepali and in English.
    for (const [locale, text] of [
      ["ne-NP", BUSY_NE],
      ["en-US", BUSY_EN],
    ]) {
      for (const javaScriptEnabled of [true, false]) {
        const context = await browser.newContext({ locale, javaScriptEnabled, ignoreHTTPSErrors: true });
        const page = await context.newPage();
        const answer = await page.goto(`https://localhost:${httpsPort}/`);
        expect(answer?.status()).toBe(503);
        await expect(page.getByText(text)).toBeVisible();
        await context.close();
      }
    }
  } finally {
    for (const h of holds) h.release();
  }
  await until(async () => (await viaNginx("GET", "/")).status === 200, "the landing served again", 10_000);
});

test("the app not answering: nginx serves the busy page itself, sends a POST once only, and the assets keep coming", async () => {
  // An app that takes each request and closes the connection without an answer.
  let requests = 0;
  const silent = net.createServer((socket) => {
    socket.once("data", () => {
      requests++;
      socket.destroy();
    });
  });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  try {
    const port = await siteInFront(path.join(dir, "silent"), (silent.address() as net.AddressInfo).port);
    const post = await viaNginx("POST", "/enquiry", {
      port,
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: `https://localhost:${port}` },
      body: "name=A&intent=save",
    });
    expect(post.status).toBe(503);
    expect(post.headers["retry-after"]).toBe("60");
    expect(post.headers["strict-transport-security"]).toBeTruthy();
    expect(post.body).toContain(BUSY_EN);
    expect(requests).toBe(1);
    const nepali = await viaNginx("GET", "/", { port, headers: { Cookie: "__Host-lang=ne" } });
    expect([nepali.status, nepali.headers["retry-after"]]).toEqual([503, "60"]);
    expect(nepali.body).toContain(BUSY_NE);
    const byAcceptLanguage = await viaNginx("GET", "/scheme", { port, headers: { "Accept-Language": "ne" } });
    expect(byAcceptLanguage.body).toContain(BUSY_NE);
    const api = await viaNginx("GET", "/api/v1/fair-draws", { port });
    expect(api.status).toBe(503);
    expect(JSON.parse(api.body)).toEqual(busyJson());
    // The busy pages are not reachable as addresses of their own.
    expect((await viaNginx("GET", "/busy/en.html", { port })).status).not.toBe(200);
    const asset = fs.readdirSync(path.join(root, buildDir, "client", "assets")).find((f) => f.endsWith(".css"))!;
    expect((await viaNginx("GET", `/assets/${asset}`, { port })).status).toBe(200);
  } finally {
    silent.close();
  }
});
