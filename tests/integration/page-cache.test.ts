// The kept public pages: which requests may share a page, when a kept page is thrown away (a change
// of public data, by any connection; the end of its 30 seconds), and what a hit sends.
import Database from "better-sqlite3";
import http from "node:http";
import zlib from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { databasePath } from "@db/index";
import {
  cachedPage,
  clearPageCache,
  isShareable,
  keepPage,
  pageCacheKey,
  pickEncoding,
  sendPage,
} from "~/utils/page-cache.server";

const html = (body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8", ...headers } });

afterEach(() => {
  clearPageCache();
  vi.useRealTimers();
});

describe("which requests share a kept page", () => {
  it("only anonymous GET/HEAD of the public pages, with the query keys each page reads", () => {
    expect(pageCacheKey("GET", "/terms", undefined)).toBe("|/terms?");
    expect(pageCacheKey("HEAD", "/terms", "")).toBe("|/terms?");
    expect(pageCacheKey("GET", "/terms", "__Host-lang=ne")).toBe("ne|/terms?");
    expect(pageCacheKey("GET", "/winner-list", "lang=ne")).toBe("ne|/winner-list?");
    expect(pageCacheKey("GET", "/showrooms?district=Kaski&state=Gandaki", undefined)).toBe(
      "|/showrooms?district=Kaski&state=Gandaki",
    );
    // The landing page holds no form (its token lives on /enquiry), so it is shared, per utm_source.
    expect(pageCacheKey("GET", "/", undefined)).toBe("|/?");
    expect(pageCacheKey("GET", "/?utm_source=tv", undefined)).toBe("|/?utm_source=tv");
    expect(pageCacheKey("POST", "/", undefined)).toBeNull();
    expect(pageCacheKey("GET", "/enquiry", undefined)).toBeNull();
    expect(pageCacheKey("GET", "/admin", undefined)).toBeNull();
    expect(pageCacheKey("GET", "/terms?x=1", undefined)).toBeNull();
    expect(pageCacheKey("GET", "/terms", "__session=abc")).toBeNull();
    expect(pageCacheKey("GET", "/terms", "lang=en; __toast=x")).toBeNull();
    // Pages that carry a form token are never shared.
    expect(pageCacheKey("GET", "/book-a-ride", undefined)).toBeNull();
  });

  it("only a 200 HTML page that sets no cookie and is not the visitor's own", () => {
    expect(isShareable(html("<p>x</p>"))).toBe(true);
    expect(isShareable(html("x", { "Cache-Control": "private, no-cache" }))).toBe(false);
    expect(isShareable(html("x", { "Set-Cookie": "a=b" }))).toBe(false);
    expect(isShareable(new Response("{}", { headers: { "Content-Type": "application/json" } }))).toBe(false);
    expect(isShareable(new Response("x", { status: 404, headers: { "Content-Type": "text/html" } }))).toBe(false);
  });
});

describe("a kept page", () => {
  it("is thrown away when public data changes in any process, and after 30 seconds", async () => {
    await keepPage("|/terms?", html("<p>terms</p>"), "n1");
    expect(cachedPage("|/terms?")?.nonce).toBe("n1");
    const other = new Database(databasePath());
    other.prepare("update settings set value = value where key = 'registration_open'").run();
    other.close();
    expect(cachedPage("|/terms?")).toBeNull();

    await keepPage("|/terms?", html("<p>terms</p>"), "n2");
    vi.useFakeTimers({ now: Date.now() + 31_000, toFake: ["Date"] });
    expect(cachedPage("|/terms?")).toBeNull();
  });

  it("is sent compressed as the client accepts, with its own nonce and its headers", async () => {
    const page = (await keepPage("|/scheme?", html("<p>scheme ".repeat(200), { "X-Frame-Options": "DENY" }), "abc"))!;
    expect(pickEncoding("gzip, deflate, br")).toBe("br");
    expect(pickEncoding("gzip")).toBe("gzip");
    expect(pickEncoding(undefined)).toBe("identity");
    let nonce = "";
    const server = http.createServer((req, res) =>
      sendPage(res, page, {
        method: req.method!,
        acceptEncoding: req.headers["accept-encoding"],
        setNonce: (n) => (nonce = n),
      }),
    );
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const { port } = server.address() as { port: number };
    const res = await new Promise<http.IncomingMessage>((resolve) =>
      http.get({ port, host: "127.0.0.1", path: "/scheme", headers: { "Accept-Encoding": "br" } }, resolve),
    );
    const chunks: Buffer[] = [];
    for await (const c of res) chunks.push(c as Buffer);
    server.close();
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.headers.vary).toContain("Cookie");
    expect(zlib.brotliDecompressSync(Buffer.concat(chunks)).toString()).toContain("<p>scheme");
    expect(nonce).toBe("abc");
  });
});
