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
