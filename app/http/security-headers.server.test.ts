// The security headers as Express sends them: per answer type, per deployment (HTTPS or not,
// captcha or not), with a fresh nonce per request.
import express from "express";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { cookieName } from "./cookie-name.server";
import { securityHeaders, type SecurityOptions } from "./security-headers.server";

const servers: { close: () => void }[] = [];
afterAll(() => servers.forEach((s) => s.close()));

async function serve(options: SecurityOptions) {
  const app = express();
  app.use(securityHeaders(options));
  app.get("/page", (_req, res) => {
    res.type("html").send(`<script nonce="${res.locals.cspNonce}">1</script>`);
  });
  app.get("/data", (_req, res) => {
    res.json({ ok: true });
  });
  app.get("/file.css", (_req, res) => {
    res.type("css").send("a{}");
  });
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((r) => server.once("listening", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return (path: string) => fetch(base + path);
}

/** The policy as a map of directive to its sources. */
const policy = (header: string | null) =>
  new Map(
    (header ?? "")
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name, values]),
  );

describe("security headers", () => {
  it("documents: scripts by nonce or from this site only, never unsafe-inline; no framing, plugins or foreign forms", async () => {
    const get = await serve({ https: false, recaptcha: false });
    const res = await get("/page");
    const csp = policy(res.headers.get("content-security-policy"));
    const nonce = /nonce="([^"]+)"/.exec(await res.text())![1];
    expect(csp.get("script-src")).toEqual(["'self'", `'nonce-${nonce}'`]);
    expect(csp.get("default-src")).toEqual(["'self'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("base-uri")).toEqual(["'self'"]);
    expect(csp.get("form-action")).toEqual(["'self'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.has("frame-src")).toBe(false);
    expect(csp.has("upgrade-insecure-requests")).toBe(false);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    // A new nonce for every request.
    const again = policy((await get("/page")).headers.get("content-security-policy"));
    expect(again.get("script-src")).not.toEqual(csp.get("script-src"));
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });

  it("every answer: Permissions-Policy, nosniff, Referrer-Policy, CORP; no banner; no HSTS over http", async () => {
    const get = await serve({ https: false, recaptcha: false });
    for (const path of ["/page", "/data", "/file.css", "/missing"]) {
      const res = await get(path);
      const h = res.headers;
      expect(h.get("permissions-policy"), path).toBe("camera=(), microphone=(), geolocation=(), payment=(), usb=()");
      expect(h.get("x-content-type-options"), path).toBe("nosniff");
      expect(h.get("referrer-policy"), path).toBe("same-origin");
      expect(h.get("cross-origin-resource-policy"), path).toBe("same-origin");
      expect(h.get("x-powered-by"), path).toBeNull();
      expect(h.get("server"), path).toBeNull();
      expect(h.get("strict-transport-security"), path).toBeNull();
      expect(policy(h.get("content-security-policy")).get("frame-ancestors"), path).toEqual(["'none'"]);
    }
  });

  it("anything but a document runs nothing when opened on its own", async () => {
    const get = await serve({ https: false, recaptcha: false });
    for (const path of ["/data", "/file.css"]) {
      expect((await get(path)).headers.get("content-security-policy"), path).toBe(
        "default-src 'none';frame-ancestors 'none'",
      );
    }
  });

  it("over HTTPS: HSTS on every answer and upgrade-insecure-requests in documents", async () => {
    const get = await serve({ https: true, recaptcha: false });
    for (const path of ["/page", "/data"]) {
      expect((await get(path)).headers.get("strict-transport-security"), path).toBe(
        "max-age=31536000; includeSubDomains",
      );
    }
    expect(policy((await get("/page")).headers.get("content-security-policy")).has("upgrade-insecure-requests")).toBe(
      true,
    );
  });

  it("reCAPTCHA's hosts only when the captcha is configured", async () => {
    const withCaptcha = policy(
      (await (await serve({ https: false, recaptcha: true }))("/page")).headers.get("content-security-policy"),
    );
    expect(withCaptcha.get("script-src")).toEqual(
      expect.arrayContaining(["https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"]),
    );
    expect(withCaptcha.get("frame-src")).toEqual([
      "https://www.google.com/recaptcha/",
      "https://recaptcha.google.com/recaptcha/",
    ]);
    const without = policy(
      (await (await serve({ https: false, recaptcha: false }))("/page")).headers.get("content-security-policy"),
    );
    expect(without.get("script-src")!.join(" ")).not.toContain("google");
  });
});

describe("cookie names", () => {
  it("carry the __Host- prefix over HTTPS, plain names over http", () => {
    expect(cookieName("session", "__session", true)).toBe("__Host-session");
    expect(cookieName("toast", "__toast", true)).toBe("__Host-toast");
    expect(cookieName("lang", "lang", true)).toBe("__Host-lang");
    expect(cookieName("session", "__session", false)).toBe("__session");
    expect(cookieName("lang", undefined, false)).toBe("lang");
  });
});
