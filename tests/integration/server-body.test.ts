/**
 * How the real server (node server.js, tests/integration/server-process.ts) sends a page's body: the chunks a page
 * is rendered in are gathered and compressed together, and the page reads the same whether it is sent as
 * brotli, gzip or plain, longer than one gathered batch (64 KB) included; a body streamed past its limit is
 * answered 413 and its client can finish sending and read that answer (the close lingers).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
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

/**
 * POST a body of `mb` megabytes in chunked encoding (no declared length) on a raw socket, as fast as it goes:
 * the answer as read, and the first error of the socket (the server closing on the client while it sends).
 */
function streamedPost(url: string, mb: number): Promise<{ answer: string; error: string | null }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let answer = "";
    let error: string | null = null;
    socket.on("data", (d: Buffer) => (answer += d.toString("latin1")));
    socket.on("error", (e: NodeJS.ErrnoException) => (error ??= e.code ?? String(e)));
    socket.on("close", () => resolve({ answer, error }));
    socket.write(
      `POST /api/v1/auth/login HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const chunk = Buffer.alloc(1024 * 1024, 0x78);
    let left = mb;
    const pump = () => {
      while (left-- > 0) {
        socket.write(`${chunk.length.toString(16)}\r\n`);
        socket.write(chunk);
        if (!socket.write("\r\n")) return void socket.once("drain", pump);
      }
      socket.end("0\r\n\r\n");
    };
    pump();
  });
}

describe("a body streamed past its limit", () => {
  it("is answered 413, and the client finishes sending and reads it: the server reads on while it closes", async () => {
    for (let i = 0; i < 10; i++) {
      const { answer, error } = await streamedPost(server.url, 20);
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toContain("The request body may not be larger than 64 KB.");
      expect(error, `attempt ${i + 1}`).toBeNull();
    }
  });
});
