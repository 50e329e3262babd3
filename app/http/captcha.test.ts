import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CAPTCHA_MESSAGE, HONEYPOT_FIELD, captchaEnabled, honeypotTripped, verifyCaptcha } from "./captcha.server";

/** A local stand-in for Google's siteverify endpoint. */
type Hit = { form: URLSearchParams; contentType: string | undefined };
let reply: { status: number; body: string } = { status: 200, body: "{}" };
const hits: Hit[] = [];
let server: http.Server;
let verifyUrl = "";

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      hits.push({ form: new URLSearchParams(body), contentType: req.headers["content-type"] });
      res.writeHead(reply.status, { "content-type": "application/json" }).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  verifyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/recaptcha/api/siteverify`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  hits.length = 0;
  process.env.RECAPTCHA_SITE_KEY = "site-key";
  process.env.RECAPTCHA_SECRET = "secret-key";
  process.env.RECAPTCHA_VERIFY_URL = verifyUrl;
});

describe("captchaEnabled", () => {
  it("needs both the site key and the secret", () => {
    expect(captchaEnabled()).toBe(true);
    delete process.env.RECAPTCHA_SECRET;
    expect(captchaEnabled()).toBe(false);
    process.env.RECAPTCHA_SECRET = "secret-key";
    delete process.env.RECAPTCHA_SITE_KEY;
    expect(captchaEnabled()).toBe(false);
  });
});

describe("verifyCaptcha", () => {
  it("passes a token the verify server accepts, posting secret, response and remoteip", async () => {
    reply = { status: 200, body: JSON.stringify({ success: true, hostname: "localhost" }) };
    const result = await verifyCaptcha("token-123", "10.0.0.7");
    expect(result).toEqual({ ok: true, errorCodes: [] });
    expect(hits).toHaveLength(1);
    expect(hits[0].contentType).toMatch(/application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(hits[0].form)).toEqual({
      secret: "secret-key",
      response: "token-123",
      remoteip: "10.0.0.7",
    });
  });

  it("refuses a token the verify server rejects, with its error codes", async () => {
    reply = { status: 200, body: JSON.stringify({ success: false, "error-codes": ["invalid-input-response"] }) };
    const result = await verifyCaptcha("bad-token", null);
    expect(result).toEqual({ ok: false, errorCodes: ["invalid-input-response"], message: CAPTCHA_MESSAGE });
    expect(hits[0].form.has("remoteip")).toBe(false);
  });

  it("refuses a missing token without asking the server", async () => {
    for (const token of [null, undefined, "", "   "]) {
      const result = await verifyCaptcha(token, "10.0.0.7");
      expect(result.ok).toBe(false);
      expect(result.message).toBe("Please verify that you are not a robot.");
      expect(result.errorCodes).toEqual(["missing-input-response"]);
    }
    expect(hits).toHaveLength(0);
  });

  it("fails when the verify server answers with an HTTP error or junk", async () => {
    reply = { status: 500, body: "oops" };
    expect(await verifyCaptcha("token", null)).toMatchObject({ ok: false, errorCodes: ["http-500"] });
    reply = { status: 200, body: "<html>not json</html>" };
    expect(await verifyCaptcha("token", null)).toMatchObject({ ok: false, errorCodes: ["bad-response"] });
  });

  it("fails when the verify server cannot be reached", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    process.env.RECAPTCHA_VERIFY_URL = `http://127.0.0.1:${port}/siteverify`;
    const result = await verifyCaptcha("token", null);
    expect(result.ok).toBe(false);
    expect(result.errorCodes).toEqual(["network-error"]);
    expect(result.message).toMatch(/could not be checked/);
  });

  it("lets every token through when the captcha is not configured", async () => {
    delete process.env.RECAPTCHA_SECRET;
    expect(await verifyCaptcha(undefined, null)).toEqual({ ok: true, errorCodes: [] });
    expect(hits).toHaveLength(0);
  });
});

describe("honeypot", () => {
  it("trips only when the hidden field is filled", () => {
    const form = new FormData();
    form.set("name", "Ram");
    expect(honeypotTripped(form)).toBe(false);
    form.set(HONEYPOT_FIELD, "");
    expect(honeypotTripped(form)).toBe(false);
    form.set(HONEYPOT_FIELD, "http://spam.example");
    expect(honeypotTripped(form)).toBe(true);
    expect(honeypotTripped(new URLSearchParams({ website: "x" }))).toBe(true);
    expect(HONEYPOT_FIELD).toBe("website");
  });
});
