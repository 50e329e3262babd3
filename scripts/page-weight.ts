/**
 * Page weight of the public journey: bytes over the wire (compressed, as the
 * browser received them) of the first load, with an empty cache, of
 * /, /enquiry/{slug}/verify and /enquiry/{slug}/draw, split into HTML, CSS, JS,
 * fonts, images and other; plus the inline script bytes inside the HTML.
 *
 *   npm run weight        (starts the built server of BUILD_DIR, default build/, on a free
 *                          loopback port with a fresh demo database under tests/.tmp/, measures, stops it)
 *   npx tsx scripts/page-weight.ts http://localhost:3000 [--db data/app.sqlite] [--verify SLUG] [--draw SLUG] [--json]
 *
 * Budget (issue 13): the landing at most 50 KB in total and no JavaScript file on any of
 * these pages (their small scripts are inline); the command fails when it is exceeded.
 *
 * Without --verify/--draw it pre-registers a test visitor through POST
 * /api/v1/enquiry; with --db (the server's SQLite file) it reads the code from
 * the SMS outbox and verifies it, so the draw page can be measured too.
 * Runs Chromium through Playwright (CHROMIUM_PATH, default /usr/bin/chromium)
 * and reads the Chrome DevTools Protocol's network events.
 */
import { chromium, type CDPSession } from "@playwright/test";
import Database from "better-sqlite3";
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net, { type AddressInfo } from "node:net";
import path from "node:path";

type Category = "html" | "css" | "js" | "fonts" | "images" | "other";
type Row = {
  path: string;
  status: number;
  requests: number;
  bytes: Record<Category, number>;
  headers: number;
  total: number;
  inlineScript: number;
  encodings: string[];
};

function args() {
  const argv = process.argv.slice(2);
  const opt = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const base = argv.find((a) => /^https?:\/\//.test(a));
  return {
    base: base?.replace(/\/$/, ""),
    db: opt("db"),
    verify: opt("verify"),
    draw: opt("draw"),
    json: argv.includes("--json"),
  };
}

const categoryOf = (type: string): Category =>
  type === "Document"
    ? "html"
    : type === "Stylesheet"
      ? "css"
      : type === "Script"
        ? "js"
        : type === "Font"
          ? "fonts"
          : type === "Image"
            ? "images"
            : "other";

async function createEntry(base: string): Promise<{ slug: string; phone: string }> {
  const branches = (await (await fetch(`${base}/api/v1/branches`)).json()) as { data: { id: number }[] };
  const phone = `98${String(crypto.randomInt(0, 1e8)).padStart(8, "0")}`;
  const body = new FormData();
  body.set("name", "Page Weight");
  body.set("address", "Kathmandu");
  body.set("phone", phone);
  body.set("citizenship_no", String(crypto.randomInt(1e7, 2e9)));
  body.set("nearest_branch_id", String(branches.data[0]?.id ?? 1));
  const res = await fetch(`${base}/api/v1/enquiry`, { method: "POST", body });
  const json = (await res.json()) as { data?: { slug: string }; message?: string };
  if (!res.ok || !json.data)
    throw new Error(`Could not pre-register a test visitor: ${res.status} ${json.message ?? ""}`);
  return { slug: json.data.slug, phone };
}

async function verifyEntry(base: string, slug: string, phone: string, dbFile: string) {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  const sms = db.prepare(`select text from sms_messages where "to" = ? order by id desc limit 1`).get(phone) as
    { text: string } | undefined;
  db.close();
  const code = sms?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`No code in the outbox of ${dbFile} for ${phone}`);
  const res = await fetch(`${base}/api/v1/enquiry/${slug}/verify`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });
  if (!res.ok) throw new Error(`Verification failed: ${res.status}`);
}

async function measure(base: string, path: string): Promise<Row> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--headless", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic"],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    const cdp: CDPSession = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    const requests = new Map<
      string,
      { type: string; headerBytes: number; status: number; encoding: string; url: string }
    >();
    const finished = new Map<string, number>();
    cdp.on("Network.responseReceived", (e) => {
      const h = e.response.headers as Record<string, string>;
      const encoding = Object.entries(h).find(([k]) => k.toLowerCase() === "content-encoding")?.[1] ?? "identity";
      requests.set(e.requestId, {
        type: e.type ?? "Other",
        headerBytes: e.response.encodedDataLength ?? 0,
        status: e.response.status,
        encoding,
        url: e.response.url,
      });
    });
    cdp.on("Network.loadingFinished", (e) => finished.set(e.requestId, e.encodedDataLength));
    const response = await page.goto(base + path, { waitUntil: "networkidle" });
    await page.waitForTimeout(300);
    const inlineScript = await page.evaluate(() =>
      Array.from(document.querySelectorAll("script:not([src])")).reduce(
        (n, s) => n + new TextEncoder().encode(s.textContent ?? "").length,
        0,
      ),
    );
    const bytes: Record<Category, number> = { html: 0, css: 0, js: 0, fonts: 0, images: 0, other: 0 };
    let headers = 0;
    const encodings = new Set<string>();
    for (const [id, total] of finished) {
      const r = requests.get(id);
      if (!r || r.url.startsWith("data:")) continue;
      const body = Math.max(0, total - r.headerBytes);
      bytes[categoryOf(r.type)] += body;
      headers += Math.min(total, r.headerBytes);
      if (body > 0) encodings.add(`${categoryOf(r.type)}:${r.encoding}`);
    }
    const total = Object.values(bytes).reduce((a, b) => a + b, 0) + headers;
    return {
      path,
      status: response?.status() ?? 0,
      requests: finished.size,
      bytes,
      headers,
      total,
      inlineScript,
      encodings: [...encodings],
    };
  } finally {
    await browser.close();
  }
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** The landing page's budget in bytes (compressed, with its images), and no JavaScript file on a public page. */
const LANDING_BUDGET = 50 * 1024;

/** Starts the built server (node server.js) on a free port with a fresh demo database; returns its address and how to stop it. */
async function startServer(): Promise<{ base: string; db: string; stop: () => Promise<void> }> {
  const free = net.createServer();
  await new Promise<void>((r) => free.listen(0, "127.0.0.1", r));
  const { port } = free.address() as AddressInfo;
  await new Promise((r) => free.close(r));
  const dataDir = path.resolve(`tests/.tmp/weight-${port}`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    BUILD_DIR: process.env.BUILD_DIR ?? "build",
    DATA_DIR: dataDir,
    DATABASE_URL: `file:${dataDir}/app.sqlite`,
    SESSION_SECRET: crypto.randomBytes(16).toString("hex"),
    COOKIE_SECURE: "false",
    RATE_LIMIT_FACTOR: "50",
    NODE_ENV: "production",
  };
  if (!fs.existsSync(path.join(env.BUILD_DIR!, "server/index.js")))
    throw new Error(`No build in ${env.BUILD_DIR}/: run npm run build first.`);
  const prepare = spawn("node_modules/.bin/tsx", ["tests/e2e/prepare-db.ts"], {
    env: { ...env, E2E_PREPARE: "1" },
    stdio: "inherit",
  });
  if ((await new Promise((r) => prepare.on("exit", r))) !== 0) throw new Error("Could not prepare the database.");
  const server: ChildProcess = spawn("node", ["server.js"], { env, stdio: ["ignore", "ignore", "inherit"] });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (
      await fetch(`${base}/login`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 150 || server.exitCode !== null) throw new Error("The server did not start.");
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    db: `${dataDir}/app.sqlite`,
    stop: async () => {
      server.kill("SIGTERM");
      if (server.exitCode === null) await new Promise((r) => server.once("exit", r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function main() {
  const opt = args();
  if (!opt.base) {
    const server = await startServer();
    try {
      await report({ ...opt, base: server.base, db: opt.db ?? server.db });
    } finally {
      await server.stop();
    }
    return;
  }
  await report({ ...opt, base: opt.base });
}

async function report(opt: ReturnType<typeof args> & { base: string }) {
  let verifySlug = opt.verify;
  let drawSlug = opt.draw;
  if (!verifySlug || !drawSlug) {
    const entry = await createEntry(opt.base);
    verifySlug ??= entry.slug;
    if (!drawSlug && opt.db) {
      const second = await createEntry(opt.base);
      await verifyEntry(opt.base, second.slug, second.phone, opt.db);
      drawSlug = second.slug;
    }
  }
  const paths = ["/", `/enquiry/${verifySlug}/verify`, ...(drawSlug ? [`/enquiry/${drawSlug}/draw`] : [])];
  const rows: Row[] = [];
  for (const path of paths) rows.push(await measure(opt.base, path));
  const landing = rows[0];
  const over = [
    ...(landing.total > LANDING_BUDGET
      ? [`the landing weighs ${kb(landing.total)} (budget ${kb(LANDING_BUDGET)})`]
      : []),
    ...rows.filter((r) => r.bytes.js > 0).map((r) => `${r.path} loads ${kb(r.bytes.js)} of JavaScript files`),
  ];
  if (over.length) process.exitCode = 1;
  if (opt.json) {
    console.log(JSON.stringify(rows, null, 2));
    return;
  }
  console.log(`Page weight of ${opt.base} (first load, empty cache, compressed bytes on the wire)\n`);
  const head = [
    "page",
    "HTML",
    "CSS",
    "JS",
    "fonts",
    "images",
    "other",
    "headers",
    "total",
    "requests",
    "inline JS (raw)",
  ];
  const table = rows.map((r) => [
    r.path.replace(/\/enquiry\/[^/]+\//, "/enquiry/{slug}/"),
    kb(r.bytes.html),
    kb(r.bytes.css),
    kb(r.bytes.js),
    kb(r.bytes.fonts),
    kb(r.bytes.images),
    kb(r.bytes.other),
    kb(r.headers),
    kb(r.total),
    String(r.requests),
    kb(r.inlineScript),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log(line(head));
  for (const row of table) console.log(line(row));
  console.log(`\nEncodings: ${[...new Set(rows.flatMap((r) => r.encodings))].join(", ")}`);
  if (!drawSlug) console.log("(The draw page needs a verified entry: pass --db <server database> or --draw <slug>.)");
  console.log(
    over.length
      ? `\nOver budget: ${over.join("; ")}`
      : `\nWithin budget (landing ≤ ${kb(LANDING_BUDGET)}, no JavaScript files).`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
