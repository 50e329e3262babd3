import { describe, expect, it } from "vitest";
import { isCrossSiteRequest } from "./same-origin.server";

const h = (o: Record<string, string>) => new Headers(o);

describe("the cross-site request rule", () => {
  it("lets reads through", () => {
    expect(isCrossSiteRequest("GET", h({ origin: "https://evil.example" }), "site.test")).toBe(false);
  });
  it("follows Sec-Fetch-Site when the browser sends it", () => {
    expect(isCrossSiteRequest("POST", h({ "sec-fetch-site": "same-origin" }), "site.test")).toBe(false);
    expect(isCrossSiteRequest("POST", h({ "sec-fetch-site": "none" }), "site.test")).toBe(false);
    expect(
      isCrossSiteRequest("POST", h({ "sec-fetch-site": "cross-site", origin: "http://site.test" }), "site.test"),
    ).toBe(true);
    expect(isCrossSiteRequest("POST", h({ "sec-fetch-site": "same-site" }), "site.test")).toBe(true);
  });
  it("compares Origin with the host otherwise", () => {
    expect(isCrossSiteRequest("POST", h({ origin: "http://site.test" }), "site.test")).toBe(false);
    expect(isCrossSiteRequest("DELETE", h({ origin: "https://evil.example" }), "site.test")).toBe(true);
    expect(isCrossSiteRequest("POST", h({ origin: "null" }), "site.test")).toBe(true);
    expect(isCrossSiteRequest("POST", h({ origin: "not a url" }), "site.test")).toBe(true);
  });
  it("leaves non-browser clients and bearer-token calls alone", () => {
    expect(isCrossSiteRequest("POST", h({}), "site.test")).toBe(false);
    expect(
      isCrossSiteRequest("POST", h({ origin: "https://evil.example", authorization: "Bearer abc" }), "site.test"),
    ).toBe(false);
  });
});

describe("a cookie-authenticated request with neither Sec-Fetch-Site nor Origin", () => {
  const session = { cookie: "__session=abc; lang=en" };
  it("is refused unless a same-origin Referer vouches for it", () => {
    expect(isCrossSiteRequest("POST", h(session), "site.test")).toBe(true);
    expect(isCrossSiteRequest("POST", h({ ...session, referer: "https://evil.example/x" }), "site.test")).toBe(true);
    expect(isCrossSiteRequest("POST", h({ ...session, referer: "not a url" }), "site.test")).toBe(true);
    expect(isCrossSiteRequest("POST", h({ ...session, referer: "http://site.test/admin/role" }), "site.test")).toBe(
      false,
    );
    expect(isCrossSiteRequest("DELETE", h({ cookie: "__Host-session=xyz" }), "site.test")).toBe(true);
  });
  it("leaves a request whose cookies sign no staff in alone (a language choice, a visitor's entries)", () => {
    expect(isCrossSiteRequest("POST", h({ cookie: "lang=ne" }), "site.test")).toBe(false);
    expect(isCrossSiteRequest("POST", h({ cookie: "entries=xyz" }), "site.test")).toBe(false);
    expect(isCrossSiteRequest("POST", h({ cookie: "x__session=1" }), "site.test")).toBe(false);
  });
});
