import { describe, expect, it } from "vitest";
import { safeRedirect } from "./safe-redirect";

describe("safeRedirect", () => {
  it.each([
    ["/admin/registration?x=1#top", "/admin/registration?x=1#top"],
    ["/winner-list", "/winner-list"],
    ["/योजना", "/%E0%A4%AF%E0%A5%8B%E0%A4%9C%E0%A4%A8%E0%A4%BE"],
    ["/admin\n/x", "/admin/x"],
    ["/./admin", "/admin"],
  ])("keeps a local path: %j", (input, out) => {
    expect(safeRedirect(input, "/fallback")).toBe(out);
  });

  it.each([
    "//evil.example",
    "/\t/evil.example",
    "/%09/evil.example".replace("%09", "\t"),
    "/\n/evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    " //evil.example",
    "/\u0000/evil.example",
    "evil.example",
    "",
  ])("refuses %j", (input) => {
    const out = safeRedirect(input, "/fallback");
    expect(out === "/fallback" || !/evil/.test(new URL(out, "http://site.test").host)).toBe(true);
    expect(new URL(out, "http://site.test").origin).toBe("http://site.test");
    expect(out.startsWith("//")).toBe(false);
  });

  it("never answers a path a browser would read as another host", () => {
    for (const weird of ["/.//evil.example", "/..//evil.example", "///evil.example"]) {
      const out = safeRedirect(weird, "/fallback");
      expect(out.startsWith("//")).toBe(false);
      expect(new URL(out, "http://site.test").host).toBe("site.test");
    }
  });

  it("ignores what is not a string", () => {
    expect(safeRedirect(null, "/f")).toBe("/f");
    expect(safeRedirect(42, "/f")).toBe("/f");
  });
});
