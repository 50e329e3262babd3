/**
 * How the real server (node server.js, tests/integration/server-process.ts) sends a page's body: the chunks a page
 * is rendered in are gathered and compressed together, and the page reads the same whether it is sent as
 * brotli, gzip or plain, longer than one gathered batch (64 KB) included.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeBranch, makeUser } from "../fixtures";
import { startServer, type ServerProcess } from "./server-process";

const dir = path.join(process.env.TEST_TMP_DIR!, `server-body-${crypto.randomBytes(4).toString("hex")}`);
let server: ServerProcess;

beforeAll(async () => {
  fs.mkdirSync(dir, { recursive: true });
  server = await startServer(dir, { DATABASE_URL: process.env.DATABASE_URL! });
}, 180_000);

afterAll(() => server?.kill());

type Raw = { encoding: string | undefined; body: Buffer; writes: number };

/** GET `url` as sent: the content encoding, the body as it came, and how many pieces it came in. */
function getRaw(url: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("end", () =>
          resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(parts), writes: parts.length }),
        );
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

const decode = (raw: Raw) =>
  (raw.encoding === "br"
    ? zlib.brotliDecompressSync(raw.body)
    : raw.encoding === "gzip"
      ? zlib.gunzipSync(raw.body)
      : raw.body
  ).toString("utf8");

/** A page differs from request to request only by its script nonce. */
const sameness = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""');

describe("page bodies", () => {
  it("read the same as brotli, gzip and plain, past one gathered batch", async () => {
    const branchTitle = (i: number) => `Body Branch ${String(i).padStart(3, "0")} ${"Showroom and Service ".repeat(4)}`;
    for (let i = 0; i < 100; i++) makeBranch({ title: branchTitle(i), city: "Kathmandu Metropolitan City" });
    const user = await makeUser("super-admin", null);
    const login = await fetch(`${server.url}/login`, {
      method: "POST",
      body: new URLSearchParams({ email: user.email, password: user.password, redirectTo: "/admin" }),
      redirect: "manual",
    });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
    expect(cookie).toMatch(/^__session=/);
    const url = `${server.url}/admin/branch?search=Body%20Branch&length=100`;

    const plain = await getRaw(url, { Cookie: cookie, "Accept-Encoding": "identity" });
    const gzip = await getRaw(url, { Cookie: cookie, "Accept-Encoding": "gzip" });
    const brotli = await getRaw(url, { Cookie: cookie, "Accept-Encoding": "br, gzip" });
    expect([plain.encoding, gzip.encoding, brotli.encoding]).toEqual([undefined, "gzip", "br"]);

    const page = decode(plain);
    expect(page.length).toBeGreaterThan(64 * 1024);
    expect(page.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(page.trimEnd().endsWith("</html>") || page.includes("streamController.close()")).toBe(true);
    for (let i = 0; i < 100; i++) expect(page).toContain(`Body Branch ${String(i).padStart(3, "0")}`);
    expect(sameness(decode(gzip))).toBe(sameness(page));
    expect(sameness(decode(brotli))).toBe(sameness(page));
    expect(brotli.body.length).toBeLessThan(page.length / 3);
    // It arrives in a few pieces (a write per gathered batch), not one per rendered chunk (over 30 here).
    expect(plain.writes).toBeLessThanOrEqual(8);
    expect(brotli.writes).toBeLessThanOrEqual(8);
  }, 120_000);
});
