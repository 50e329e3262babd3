// The kept public pages: which requests may share a page, when a kept page is thrown away (a change
// of public data, by any connection; the end of its 30 seconds), and what a hit sends.
import Database from "better-sqlite3";
import http from "node:http";
import zlib from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { databasePath } from "@db/index";
import { cachedPage, clearPageCache, isShareable, keepPage, pageCacheKey, sendPage } from "~/http/page-cache.server";
import { pickEncoding } from "~/http/compression.server";

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
    // The pre-registration form is kept, its token swapped on each hit; an entry's change is the visitor's own.
    expect(pageCacheKey("GET", "/enquiry", undefined)).toBe("|/enquiry?");
    expect(pageCacheKey("GET", "/enquiry?change=abc", undefined)).toBeNull();
    expect(pageCacheKey("GET", "/admin", undefined)).toBeNull();
    expect(pageCacheKey("GET", "/terms?x=1", undefined)).toBeNull();
    expect(pageCacheKey("GET", "/terms", "__session=abc")).toBeNull();
    expect(pageCacheKey("GET", "/terms", "lang=en; __toast=x")).toBeNull();
    // The journey cookie (a code sent) changes no kept page.
    expect(pageCacheKey("GET", "/", "journey=abc; lang=ne")).toBe("ne|/?");
    expect(pageCacheKey("GET", "/enquiry", "__Host-journey=abc")).toBe("|/enquiry?");
    // The test-ride form is rendered for each visitor.
    expect(pageCacheKey("GET", "/book-a-ride", undefined)).toBeNull();
  });

  it("only a 200 HTML page that sets no cookie and is not the visitor's own", () => {
    expect(isShareable(html("<p>x</p>"))).toBe(true);
    expect(isShareable(html("x", { "Cache-Control": "private, no-cache" }))).toBe(false);
    expect(isShareable(html("x", { "Set-Cookie": "a=b" }))).toBe(false);
    expect(isShareable(new Response("{}", { headers: { "Content-Type": "application/json" } }))).toBe(false);
    expect(isShareable(new Response("x", { status: 404, headers: { "Content-Type": "text/html" } }))).toBe(false);
    // The form page: its own part is its token (private, no-cache), never a no-store answer.
    expect(isShareable(html("x", { "Cache-Control": "private, no-cache" }), "|/enquiry?")).toBe(true);
    expect(isShareable(html("x", { "Cache-Control": "no-store" }), "|/enquiry?")).toBe(false);
    expect(isShareable(html("x", { "Cache-Control": "private, no-cache" }), "|/terms?")).toBe(false);
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

  it("of the form gives each visitor a new form token, in every place the page holds it", async () => {
    const token = "AAAAbbbbCCCCdddd-___1234";
    const form = `<form><input type="hidden" name="form_token" value="${token}"/><p>${"field ".repeat(300)}</p></form><script>t="${token}"</script>`;
    const kept = (await keepPage("|/enquiry?", html(form, { "Cache-Control": "private, no-cache" }), "n"))!;
    expect(cachedPage("|/enquiry?")).toBe(kept);
    const server = http.createServer((req, res) =>
      sendPage(res, kept, { method: req.method!, acceptEncoding: req.headers["accept-encoding"], setNonce: () => {} }),
    );
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const { port } = server.address() as { port: number };
    const get = async (encoding: string) => {
      const res = await new Promise<http.IncomingMessage>((resolve) =>
        http.get({ port, host: "127.0.0.1", path: "/enquiry", headers: { "Accept-Encoding": encoding } }, resolve),
      );
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks);
      expect(Number(res.headers["content-length"])).toBe(body.length);
      expect(res.headers["cache-control"]).toBe("private, no-cache");
      if (encoding === "br") return zlib.brotliDecompressSync(body).toString();
      return encoding === "gzip" ? zlib.gunzipSync(body).toString() : body.toString();
    };
    const pages = [await get("br"), await get("gzip"), await get("identity"), await get("br")];
    server.close();
    const tokens = pages.map((p) => /name="form_token" value="([A-Za-z0-9_-]{24})"/.exec(p)![1]);
    expect(new Set([token, ...tokens]).size).toBe(5);
    pages.forEach((p, i) => {
      expect(p).not.toContain(token);
      expect(p).toBe(form.replaceAll(token, tokens[i]));
    });
  });

  it("of the form is not kept when it holds no token field", async () => {
    await keepPage("|/enquiry?", html("<form><p>closed</p></form>", { "Cache-Control": "private, no-cache" }), "n");
    expect(cachedPage("|/enquiry?")).toBeNull();
  });
});
