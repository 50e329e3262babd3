/**
 * The deployment as the VPS runs it: Debian's nginx with deploy/nginx/campaign.conf (TLS with a
 * self-signed certificate, HTTP/2) in front of the built server started by the ExecStart of
 * deploy/systemd/campaign.service (Litestream running cluster.js, two workers), both files used with
 * only their paths and ports substituted. Over HTTPS: a public page and its nginx-served assets, HSTS,
 * sign-in with Secure __Host- cookies, the visitor's address (as nginx saw it) reaching the rate
 * limits through TRUST_PROXY while a forged X-Forwarded-For does not, and the body limits answered
 * in the app's 413 shape by the app and by nginx alike.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http2 from "node:http2";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import Database from "better-sqlite3";
import sharp from "sharp";
import { expect, test } from "@playwright/test";
import { PASSWORD } from "./helpers";
import { freePort } from "../free-port";
import { NGINX, SITE_SERVERNAME, selfSignedCertificate, startNginx, writeNginxSite } from "../nginx-site";

const root = process.cwd();
const dir = path.join(os.tmpdir(), `deploy-${process.pid}`);
const e2eDatabase = path.join(root, "tests", ".tmp", `e2e-${process.env.E2E_PORT ?? 4173}`, "app.sqlite");
const children: ChildProcess[] = [];
let httpsPort = 0;
let httpPort = 0;
/** The address the site's geo block lists (as the rehearsal lists its own client): nginx does not pace its POSTs. */
const UNPACED = "127.0.0.11";
const site = fs.readFileSync(path.join(root, "deploy", "nginx", "campaign.conf"), "utf8");
/** A directive's seconds in the site, e.g. client_header_timeout 10s → 10. */
function seconds(directive: string): number {
  const m = new RegExp(`^\\s*${directive} (\\d+)s;`, "m").exec(site);
  if (!m) throw new Error(`${directive} is not set in deploy/nginx/campaign.conf`);
  return Number(m[1]);
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string; size: number };

/** An HTTPS request to nginx from a chosen loopback address (a visitor of its own). */
function fromAddress(
  localAddress: string,
  method: string,
  pathname: string,
  { body, headers = {} }: { body?: Buffer | string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: "127.0.0.1",
        port: httpsPort,
        servername: SITE_SERVERNAME,
        localAddress,
        method,
        path: pathname,
        rejectUnauthorized: false,
        headers: {
          Host: "localhost",
          ...(body ? { "Content-Length": String(Buffer.byteLength(body)) } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body.toString(), size: body.length });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** A multipart upload of one file of `size` bytes (a PNG header, then padding) to /api/v1/upload. */
function uploadBody(size: number, png: Buffer): { body: Buffer; type: string } {
  const boundary = `----deploy${size}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nbike-model\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="files[]"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const file = size <= png.length ? png : Buffer.concat([png, Buffer.alloc(size - png.length)]);
  return { body: Buffer.concat([head, file, tail]), type: `multipart/form-data; boundary=${boundary}` };
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  if (!fs.existsSync(NGINX)) {
    // CI installs it (tests/ensure-nginx.sh); a developer's machine without it says so.
    test.skip(!process.env.CI, `nginx is not installed at ${NGINX} (bash tests/ensure-nginx.sh)`);
    throw new Error(`nginx is missing at ${NGINX}`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, "data"), { recursive: true });
  // The e2e run's demo database, copied online (the e2e server keeps running on it).
  const source = new Database(e2eDatabase, { readonly: true });
  await source.backup(path.join(dir, "data", "app.sqlite"));
  source.close();
  // A new deployment starts with no rate-limit counts (the other e2e tests' login tries from 127.0.0.1 are not its).
  const copy = new Database(path.join(dir, "data", "app.sqlite"));
  copy.prepare("delete from rate_limit_counters").run();
  copy.close();

  selfSignedCertificate(dir);

  const appPort = await freePort();
  httpsPort = await freePort();
  httpPort = await freePort();

  // The systemd unit: its Environment lines and its ExecStart, paths substituted.
  const unit = fs.readFileSync(path.join(root, "deploy", "systemd", "campaign.service"), "utf8");
  const env: Record<string, string> = {};
  for (const m of unit.matchAll(/^Environment=([A-Z_]+)=(.*)$/gm)) env[m[1]] = m[2];
  expect(env).toMatchObject({ NODE_ENV: "production", TRUST_PROXY: "loopback", PORT: "3000" });
  const execStart = /^ExecStart=(.*)$/m.exec(unit)![1].replaceAll("/srv/campaign", root);
  const database = path.join(dir, "data", "app.sqlite");
  fs.mkdirSync(path.join(root, "test-results"), { recursive: true });
  const app: ChildProcess = spawn("bash", ["-c", `exec ${execStart}`], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      ...env,
      PORT: String(appPort),
      // What /etc/campaign.env holds on the VPS.
      DATABASE_URL: `file:${database}`,
      LITESTREAM_DB_PATH: database,
      LITESTREAM_REPLICA_URL: `file://${path.join(dir, "replica")}`,
      SESSION_SECRET: "deploy-test-secret",
      DATA_DIR: path.join(dir, "data"),
      PUBLIC_URL: `https://localhost:${httpsPort}`,
      WEB_CONCURRENCY: "2",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
    } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  children.push(app);
  let appOutput = "";
  const log = fs.createWriteStream(path.join(root, "test-results", `deploy-app-${process.pid}.log`));
  for (const stream of [app.stdout, app.stderr])
    stream?.on("data", (c: Buffer) => {
      appOutput += c.toString();
      log.write(c);
    });

  // The nginx site: ports and paths substituted, inside a minimal main configuration.
  const nginx = startNginx(
    writeNginxSite({
      root,
      buildDir: process.env.BUILD_DIR ?? "build",
      dir,
      appPort,
      httpsPort,
      httpPort,
      workerProcesses: 1,
      workerConnections: 256,
      unpaced: [UNPACED],
    }),
  );
  children.push(nginx);

  await until(async () => (await fromAddress("127.0.0.1", "GET", "/healthz")).status === 200, "the app behind nginx");
  await until(
    async () => JSON.parse((await fromAddress("127.0.0.1", "GET", "/healthz")).body).workers?.length === 2,
    `both workers (${appOutput.slice(-500)})`,
  );
});

test.afterAll(async () => {
  for (const child of children.reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    // The unit's stop: SIGTERM to Litestream, which passes it on to the server processes.
    if (child.pid) {
      try {
        process.kill(child.spawnargs[0] === "bash" ? -child.pid : child.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        resolve();
      }, 30_000);
      child.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  const errors = path.join(dir, "nginx-error.log");
  if (fs.existsSync(errors))
    fs.copyFileSync(errors, path.join(root, "test-results", `deploy-nginx-${process.pid}.log`));
  fs.rmSync(dir, { recursive: true, force: true });
});

test("a public page over HTTPS with HTTP/2 and HSTS; its assets served by nginx, cached for a year, with HSTS and nosniff; HTTP goes to HTTPS", async ({
  browser,
}) => {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  const response = await page.goto(`https://localhost:${httpsPort}/`);
  expect(response!.status()).toBe(200);
  const headers = response!.headers();
  expect(headers["strict-transport-security"]).toMatch(/max-age=\d+/);
  expect(headers.server).toBe("nginx"); // server_tokens off: no version
  expect(
    await page.evaluate(
      () => (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).nextHopProtocol,
    ),
  ).toBe("h2");

  const asset = await page.evaluate(
    () =>
      [
        ...document.querySelectorAll<HTMLLinkElement>(
          "link[rel=stylesheet][href^='/assets/'], link[rel=icon][href^='/assets/']",
        ),
      ].map((l) => l.getAttribute("href"))[0] ?? null,
  );
  expect(asset, "the page links a file of the build").not.toBeNull();
  const file = await fromAddress("127.0.0.1", "GET", asset!);
  expect(file.status).toBe(200);
  expect(file.headers["cache-control"]).toContain("immutable");
  // nginx's own ETag ("mtime-size" in hex), not the Node server's weak one: nginx served the file.
  expect(String(file.headers.etag)).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
  // The app's answers carry these; nginx's own answers for the assets do too.
  expect(file.headers["strict-transport-security"]).toBe(headers["strict-transport-security"]);
  expect(file.headers["x-content-type-options"]).toBe("nosniff");

  const plain = await new Promise<{ status: number; location?: string }>((resolve, reject) => {
    const req = net.connect(httpPort, "127.0.0.1", () =>
      req.end(`GET /scheme HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`),
    );
    let raw = "";
    req.on("data", (c) => (raw += c.toString()));
    req.on("end", () =>
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(raw)?.[1]), location: /\r\nLocation: (\S+)/i.exec(raw)?.[1] }),
    );
    req.on("error", reject);
  });
  expect(plain).toEqual({ status: 301, location: "https://localhost/scheme" });
  await context.close();
});

test("sign-in over HTTPS sets Secure __Host- cookies and opens the back office", async ({ browser }) => {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  await page.goto(`https://localhost:${httpsPort}/login`);
  await page.getByLabel("Email").fill("admin@demo.test");
  await page.getByLabel(/^Password\b/).fill(PASSWORD);
  await page.locator("button[type=submit]").click();
  await expect(page).toHaveURL(/\/admin/);
  const cookies = await context.cookies();
  const session = cookies.filter((c) => c.name.startsWith("__Host-"));
  expect(session.length).toBeGreaterThan(0);
  for (const c of session) expect(c).toMatchObject({ secure: true, path: "/", httpOnly: true });
  await context.close();
});

test("the visitor's address, as nginx saw it, reaches the rate limits; a forged X-Forwarded-For does not", async () => {
  const attempt = (address: string, n: number, headers: Record<string, string> = {}) =>
    fromAddress(address, "POST", "/api/v1/auth/login", {
      body: JSON.stringify({ email: `nobody-${n}@deploy.test`, password: "wrong-password" }),
      headers: { "Content-Type": "application/json", ...headers },
    });
  // login-ip: 30 tries per address per 15 minutes (RATE_LIMIT_FACTOR 1, as in production).
  for (let n = 0; n < 30; n++) expect((await attempt("127.0.0.7", n)).status, `try ${n + 1}`).not.toBe(429);
  const over = await attempt("127.0.0.7", 30);
  expect(over.status).toBe(429);
  expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
  // Another visitor is not held back, even when it claims to be the first one.
  expect((await attempt("127.0.0.8", 31)).status).not.toBe(429);
  expect((await attempt("127.0.0.8", 32, { "X-Forwarded-For": "127.0.0.7" })).status).not.toBe(429);
});

test("an upload under the limit is taken; over it, the app and nginx refuse it with the app's 413", async () => {
  const login = await fromAddress("127.0.0.9", "POST", "/api/v1/auth/login", {
    body: JSON.stringify({ email: "admin@demo.test", password: PASSWORD }),
    headers: { "Content-Type": "application/json" },
  });
  expect(login.status).toBe(200);
  const token = JSON.parse(login.body).access_token as string;
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#b00020" } })
    .png()
    .toBuffer();
  const send = (size: number) => {
    const { body, type } = uploadBody(size, png);
    return fromAddress("127.0.0.9", "POST", "/api/v1/upload", {
      body,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": type },
    });
  };
  const small = await send(png.length);
  expect(small.status, small.body).toBe(201);

  const byApp = await send(12.5 * 1024 * 1024); // over the app's 12 MB, under nginx's 13 MB
  expect(byApp.status).toBe(413);
  const byNginx = await send(14 * 1024 * 1024); // over nginx's limit: never reaches the app
  expect(byNginx.status).toBe(413);
  expect(JSON.parse(byNginx.body)).toEqual(JSON.parse(byApp.body));
  expect(JSON.parse(byApp.body).message).toBe("The request body may not be larger than 12 MB.");
});

/** What a raw TLS connection to nginx gets: whether the handshake passed, and the bytes before it closed. */
function rawTls(servername: string, request: string): Promise<{ handshake: boolean; bytes: string }> {
  return new Promise((resolve) => {
    let handshake = false;
    let bytes = "";
    const socket = tls.connect(
      { host: "127.0.0.1", port: httpsPort, servername, rejectUnauthorized: false, ALPNProtocols: ["http/1.1"] },
      () => {
        handshake = true;
        socket.write(request); // not end(): nginx takes a half-closed connection for a client gone away
      },
    );
    socket.on("data", (c: Buffer) => (bytes += c.toString()));
    socket.on("error", () => {});
    socket.on("close", () => resolve({ handshake, bytes }));
  });
}

/** The bytes a plain-HTTP connection to nginx gets before it closes. */
function rawHttp(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let bytes = "";
    const socket = net.connect(httpPort, "127.0.0.1", () => socket.write(request));
    socket.on("data", (c: Buffer) => (bytes += c.toString()));
    socket.on("error", reject);
    socket.on("close", () => resolve(bytes));
  });
}

test("any other name gets no answer: no TLS handshake without the site's name, the connection closed for another Host", async () => {
  const get = (host: string) => `GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
  // The site's own name, for comparison: a handshake and an answer.
  const own = await rawTls(SITE_SERVERNAME, get("localhost"));
  expect(own.handshake).toBe(true);
  expect(own.bytes).toMatch(/^HTTP\/1\.1 200 /);
  // A name the site does not have, or none (a scanner going by address): the handshake is refused.
  expect(await rawTls("thrill.example.com", get("thrill.example.com"))).toEqual({ handshake: false, bytes: "" });
  expect(await rawTls("", get("203.0.113.7"))).toEqual({ handshake: false, bytes: "" });
  // The site's name in the handshake but another Host: closed without a byte (444).
  expect(await rawTls(SITE_SERVERNAME, get("thrill.example.com"))).toEqual({ handshake: true, bytes: "" });
  // Plain HTTP: the site's name is sent to HTTPS, another Host gets nothing.
  expect(await rawHttp(get("localhost"))).toMatch(/^HTTP\/1\.1 301 /);
  expect(await rawHttp(get("thrill.example.com"))).toBe("");
  expect(await rawHttp(get("203.0.113.7"))).toBe("");
});

test("TLS sessions resume from nginx's session cache, never from a session ticket", async () => {
  const connect = (session?: Buffer) =>
    new Promise<tls.TLSSocket>((resolve, reject) => {
      const socket = tls.connect(
        {
          host: "127.0.0.1",
          port: httpsPort,
          servername: SITE_SERVERNAME,
          rejectUnauthorized: false,
          // TLS 1.2 says in the handshake whether a ticket is given (TLS 1.3 resumes only through its own tickets).
          maxVersion: "TLSv1.2",
          session,
        },
        () => resolve(socket),
      );
      socket.on("error", reject);
    });
  const first = await connect();
  expect(first.getTLSTicket(), "nginx gave a session ticket").toBeUndefined();
  const session = first.getSession();
  first.end();
  expect(session).toBeDefined();
  const second = await connect(session);
  expect(second.isSessionReused(), "resumed from the session cache").toBe(true);
  second.end();
});

test("a burst of public POSTs from one address past the limit is refused by nginx; GETs, other addresses and the unpaced one pass", async () => {
  // Generous, as many phones share one address on a mobile network: 50 at once get through.
  const GENEROUS = 50;
  const burst = GENEROUS + 40;
  const paced = (a: Answer) => a.status === 429 && a.body.includes("Too many requests from your network at once");
  // Each on a connection of its own, closed after its answer (visitors behind one address, not one client).
  const post = (address: string, pathname = "/api/v1/enquiry") =>
    fromAddress(address, "POST", pathname, {
      body: "{}",
      headers: { "Content-Type": "application/json", Connection: "close" },
    });
  const many = (n: number, send: () => Promise<Answer>) => Promise.all(Array.from({ length: n }, send));

  const posts = await many(burst, () => post("127.0.0.10"));
  const refused = posts.filter(paced);
  expect(refused.length, "refused by nginx").toBeGreaterThan(0);
  expect(posts.length - refused.length, "let through at once").toBeGreaterThanOrEqual(GENEROUS);
  for (const r of refused) expect(Number(r.headers["retry-after"])).toBeGreaterThan(0);
  // Each public form's path is paced, whatever its case (the app's routes ignore it): a burst from an address of its own.
  const forms = [
    "/enquiry?index",
    "/ENQUIRY/continue",
    "/enquiry/x/verify",
    "/book-a-ride",
    "/login",
    "/reset-password",
  ];
  for (const [i, pathname] of [...forms, "/api/v1/test-ride", "/api/v1/auth/login"].entries())
    expect(
      (await many(burst, () => post(`127.0.1.${i + 1}`, pathname))).filter(paced).length,
      pathname,
    ).toBeGreaterThan(0);
  // The same address's GETs are not paced; nor is another address, nor the one the geo block lists.
  expect(
    (
      await many(burst, () => fromAddress("127.0.0.10", "GET", "/healthz", { headers: { Connection: "close" } }))
    ).filter(paced),
  ).toEqual([]);
  expect(paced(await post("127.0.0.12"))).toBe(false);
  expect((await many(burst, () => post(UNPACED))).filter(paced)).toEqual([]);
});

test("a slow client is dropped: a request header or body that stops coming, an answer not taken", async () => {
  test.setTimeout(90_000); // nginx's own defaults would take 60 s
  /** Seconds from the connection until nginx closes it, after `send`. */
  const closedAfter = (send: (socket: tls.TLSSocket) => void) =>
    new Promise<number>((resolve) => {
      const started = Date.now();
      const socket = tls.connect(
        { host: "127.0.0.1", port: httpsPort, servername: SITE_SERVERNAME, rejectUnauthorized: false },
        () => send(socket),
      );
      socket.on("data", () => {});
      socket.on("error", () => {});
      socket.on("close", () => resolve((Date.now() - started) / 1000));
    });
  /** Seconds until nginx resets an HTTP/2 stream whose client takes nothing of the answer (a window of 0). */
  const resetAfter = (pathname: string) =>
    new Promise<number>((resolve, reject) => {
      const started = Date.now();
      const session = http2.connect(`https://127.0.0.1:${httpsPort}`, {
        servername: SITE_SERVERNAME,
        rejectUnauthorized: false,
        settings: { initialWindowSize: 0 },
      });
      session.on("error", () => {});
      const stream = session.request({ ":path": pathname, ":authority": "localhost" });
      stream.on("error", () => {});
      stream.on("data", () => reject(new Error("data arrived through a window of 0")));
      stream.on("close", () => {
        session.close();
        resolve((Date.now() - started) / 1000);
      });
    });
  const asset = fs.readdirSync(path.join(root, process.env.BUILD_DIR ?? "build", "client", "assets"))[0];
  const [header, body, answer] = await Promise.all([
    closedAfter((s) => s.write("GET / HTTP/1.1\r\nHost: localhost\r\n")),
    closedAfter((s) =>
      s.write(
        "POST /api/v1/upload HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 10\r\n\r\n{",
      ),
    ),
    resetAfter(`/assets/${asset}`),
  ]);
  for (const [what, took, directive] of [
    ["a header", header, "client_header_timeout"],
    ["a body", body, "client_body_timeout"],
    ["an answer", answer, "send_timeout"],
  ] as const) {
    // Within 20 s, where nginx's defaults wait 60 s each…
    expect(took, what).toBeLessThan(20);
    // …and by nginx's timer at the site's setting, not by some other end of the connection.
    expect(took, what).toBeGreaterThanOrEqual(seconds(directive) - 0.5);
  }
});

test("answers are buffered by nginx, so a client that takes nothing holds no server connection; the downloads stream", async () => {
  const login = await fromAddress("127.0.0.13", "POST", "/api/v1/auth/login", {
    body: JSON.stringify({ email: "admin@demo.test", password: PASSWORD }),
    headers: { "Content-Type": "application/json" },
  });
  const headers = { Authorization: `Bearer ${JSON.parse(login.body).access_token}` };
  const list = "/api/v1/preregistration?length=500";
  const download = "/api/v1/preregistration/download";
  // Each larger than nginx's buffers for one answer (36 KB), so an answer buffered for a client that takes
  // nothing goes on into a temporary file, which nginx's log reports.
  for (const pathname of [list, download])
    expect((await fromAddress("127.0.0.13", "GET", pathname, { headers })).size, pathname).toBeGreaterThan(64 * 1024);

  const log = path.join(dir, "nginx-error.log");
  const spilled = (pathname: string) =>
    fs
      .readFileSync(log, "utf8")
      .split("\n")
      .some((line) => line.includes("buffered to a temporary file") && line.includes(`"GET ${pathname} `));
  const session = http2.connect(`https://127.0.0.1:${httpsPort}`, {
    servername: SITE_SERVERNAME,
    rejectUnauthorized: false,
    settings: { initialWindowSize: 0 },
  });
  session.on("error", () => {});
  try {
    for (const pathname of [list, download])
      session.request({ ":path": pathname, ":authority": "localhost", ...headers }).on("error", () => {});
    // The list is read whole from the app at once, into nginx's buffers and a temporary file.
    await until(async () => spilled(list), "the list's answer buffered by nginx", 10_000);
    // The download is read only as the client takes it: none of it waits in a file of nginx's.
    await new Promise((r) => setTimeout(r, 1000));
    expect(spilled(download)).toBe(false);
  } finally {
    session.destroy();
  }
});

test("this test's nginx reads the build wherever the checkout lies, even in a folder other users cannot enter", async () => {
  // A checkout of its own inside a 0700 folder (as a home folder often is): the site and one built file.
  const checkout = fs.mkdtempSync(path.join(os.tmpdir(), "checkout-"));
  const nginxDir = path.join(checkout, "nginx");
  let nginx: ChildProcess | undefined;
  try {
    fs.chmodSync(checkout, 0o700);
    fs.mkdirSync(path.join(checkout, "deploy", "nginx"), { recursive: true });
    fs.copyFileSync(
      path.join(root, "deploy", "nginx", "campaign.conf"),
      path.join(checkout, "deploy", "nginx", "campaign.conf"),
    );
    fs.mkdirSync(path.join(checkout, "build", "client", "assets"), { recursive: true });
    fs.writeFileSync(path.join(checkout, "build", "client", "assets", "probe.txt"), "built");
    fs.mkdirSync(nginxDir);
    selfSignedCertificate(nginxDir);
    const ports = { appPort: await freePort(), httpsPort: await freePort(), httpPort: await freePort() };
    nginx = startNginx(
      writeNginxSite({ root: checkout, buildDir: "build", dir: nginxDir, ...ports, workerProcesses: 1 }),
    );
    const get = () =>
      new Promise<Answer>((resolve, reject) => {
        const req = https.get(
          {
            host: "127.0.0.1",
            port: ports.httpsPort,
            path: "/assets/probe.txt",
            servername: SITE_SERVERNAME,
            headers: { Host: "localhost" },
            rejectUnauthorized: false,
          },
          (res) => {
            let body = "";
            res.on("data", (c: Buffer) => (body += c.toString()));
            res.on("end", () =>
              resolve({ status: res.statusCode ?? 0, headers: res.headers, body, size: body.length }),
            );
          },
        );
        req.on("error", reject);
      });
    let answer: Answer | undefined;
    await until(async () => Boolean((answer = await get())), "the second nginx", 10_000);
    expect(answer!.status).toBe(200);
    expect(answer!.body).toBe("built");
  } finally {
    if (nginx && nginx.exitCode === null && nginx.signalCode === null) {
      const exited = new Promise((r) => nginx!.once("exit", r));
      nginx.kill("SIGTERM");
      await exited;
    }
    fs.rmSync(checkout, { recursive: true, force: true });
  }
});
