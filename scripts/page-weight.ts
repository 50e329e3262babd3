/**
 * Page weight of the public journey: bytes over the wire (compressed, as the
 * browser received them) of the first load, with an empty cache, of
 * /, /enquiry/{slug}/verify and /enquiry/{slug}/draw, split into HTML, CSS, JS,
 * fonts, images and other; plus the inline script bytes inside the HTML.
 *
 *   npx tsx scripts/page-weight.ts http://localhost:3000 [--db data/app.sqlite] [--verify SLUG] [--draw SLUG] [--json]
 *
 * Without --verify/--draw it pre-registers a test visitor through POST
 * /api/v1/enquiry; with --db (the server's SQLite file) it reads the code from
 * the SMS outbox and verifies it, so the draw page can be measured too.
 * Runs Chromium through Playwright (CHROMIUM_PATH, default /usr/bin/chromium)
 * and reads the Chrome DevTools Protocol's network events.
 */
import { chromium, type CDPSession } from "@playwright/test";
import Database from "better-sqlite3";
import crypto from "node:crypto";

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
  if (!base) {
    console.error(
      "Usage: npx tsx scripts/page-weight.ts <server URL> [--db file] [--verify slug] [--draw slug] [--json]",
    );
    process.exit(2);
  }
  return {
    base: base.replace(/\/$/, ""),
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
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
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

async function main() {
  const opt = args();
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
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
