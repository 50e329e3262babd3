/**
 * How the real server (node server.js, tests/integration/server-process.ts) sends a page's body: a page up to
 * 256 KB is gathered whole, compressed in one go and sent with its length; a larger one streams, its chunks
 * gathered into batches; either reads the same whether it is sent as brotli, gzip or plain. A body streamed
 * past its limit is answered 413 and its client can finish sending and read that answer (the close lingers).
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

type Raw = { encoding: string | undefined; length: string | undefined; body: Buffer; writes: number };

/** GET `url` as sent: the content encoding, the body as it came, and how many pieces it came in. */
function getRaw(url: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("end", () =>
          resolve({
            encoding: res.headers["content-encoding"],
            length: res.headers["content-length"],
            body: Buffer.concat(parts),
            writes: parts.length,
          }),
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

/** A super admin's session cookie. */
async function signIn(): Promise<string> {
  const user = await makeUser("super-admin", null);
  const login = await fetch(`${server.url}/login`, {
    method: "POST",
    body: new URLSearchParams({ email: user.email, password: user.password, redirectTo: "/admin" }),
    redirect: "manual",
  });
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
  expect(cookie).toMatch(/^__session=/);
  return cookie;
}

/** The page at `url` as plain, gzip and brotli; checks each reads the same, with the branches named `title(i)`. */
async function threeWays(url: string, cookie: string, title: (i: number) => string) {
  const plain = await getRaw(url, { Cookie: cookie, "Accept-Encoding": "identity" });
  const gzip = await getRaw(url, { Cookie: cookie, "Accept-Encoding": "gzip" });
  const brotli = await getRaw(url, { Cookie: cookie, "Accept-Encoding": "br, gzip" });
  expect([plain.encoding, gzip.encoding, brotli.encoding]).toEqual([undefined, "gzip", "br"]);
  const page = decode(plain);
  expect(page.startsWith("<!DOCTYPE html>")).toBe(true);
  expect(page.trimEnd().endsWith("</html>") || page.includes("streamController.close()")).toBe(true);
  for (let i = 0; i < 100; i++) expect(page).toContain(title(i));
  expect(sameness(decode(gzip))).toBe(sameness(page));
  expect(sameness(decode(brotli))).toBe(sameness(page));
  expect(brotli.body.length).toBeLessThan(page.length / 3);
  return { plain, gzip, brotli, page };
}

describe("page bodies", () => {
  it("up to 256 KB: sent whole with their length, reading the same as brotli, gzip and plain", async () => {
    const title = (i: number) => `Body Branch ${String(i).padStart(3, "0")} ${"Showroom and Service ".repeat(4)}`;
    for (let i = 0; i < 100; i++) makeBranch({ title: title(i), city: "Kathmandu Metropolitan City" });
    const cookie = await signIn();
    const { plain, gzip, brotli, page } = await threeWays(
      `${server.url}/admin/branch?search=Body%20Branch&length=100`,
      cookie,
      title,
    );
    expect(page.length).toBeGreaterThan(64 * 1024);
    expect(page.length).toBeLessThan(256 * 1024);
    for (const raw of [plain, gzip, brotli]) expect(raw.length).toBe(String(raw.body.length));
  }, 120_000);

  it("past 256 KB: streamed in batches, reading the same as brotli, gzip and plain", async () => {
    const title = (i: number) =>
      `Long Branch ${String(i).padStart(3, "0")} ${"Showroom, Service and Spares ".repeat(40)}`;
    for (let i = 0; i < 100; i++) makeBranch({ title: title(i), city: "Pokhara Metropolitan City" });
    const cookie = await signIn();
    const { plain, brotli, page } = await threeWays(
      `${server.url}/admin/branch?search=Long%20Branch&length=100`,
      cookie,
      title,
    );
    expect(page.length).toBeGreaterThan(256 * 1024);
    expect([plain.length, brotli.length]).toEqual([undefined, undefined]);
    // It arrives in a few pieces (a write per gathered batch of 64 KB), not one per rendered chunk.
    expect(plain.writes).toBeLessThanOrEqual(Math.ceil(page.length / (64 * 1024)) + 8);
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
