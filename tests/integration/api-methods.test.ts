/**
 * Every call of the API answers every method with what it means: each /api/v1 module, sent GET, HEAD,
 * POST, PUT, PATCH and DELETE without credentials, has an answer for each (a method it takes is answered
 * by its own rules: 401, 404, 422…), and a method it does not take is 405 with `Allow` naming exactly
 * the methods it answers otherwise, and the JSON message. Never Remix's 400 for a missing loader, never a 5xx.
 */
import { describe, expect, it } from "vitest";
import { call, req } from "../route-helpers";

type Handler = Parameters<typeof call>[0];
type RouteModule = { loader?: Handler; action?: Handler };
const modules = import.meta.glob<RouteModule>("/app/routes/api.v1.*.ts", { eager: true });

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;

describe("every /api/v1 call answers every method", () => {
  it("walks every module", () => {
    expect(Object.keys(modules).length).toBeGreaterThan(60);
  });

  for (const [file, mod] of Object.entries(modules)) {
    const name = file.replace(/^.*\/routes\//, "").replace(/\.ts$/, "");
    if (name === "api.v1.$") continue; // every method of an unknown path is the API's 404
    it(name, async () => {
      const params = Object.fromEntries(
        name
          .split(".")
          .filter((p) => p.startsWith("$"))
          .map((p) => [p.slice(1), "no-such-record"]),
      );
      const path = `/${name.replace(/\./g, "/").replace(/\$[a-z]+/g, "no-such-record")}`;
      const answered: string[] = [];
      const allows = new Set<string>();
      for (const method of METHODS) {
        const handler = method === "GET" || method === "HEAD" ? mod.loader : mod.action;
        expect(
          handler,
          `${method} ${path}: the module has no ${method === "GET" || method === "HEAD" ? "loader" : "action"}`,
        ).toBeTypeOf("function");
        const res = await call(handler!, req(method, path), params);
        expect(res.status, `${method} ${path}`).toBeLessThan(500);
        if (res.status !== 405) {
          answered.push(method);
          continue;
        }
        const allow = res.headers.get("Allow");
        expect(allow, `${method} ${path}: 405 without Allow`).toBeTruthy();
        allows.add(allow!);
        expect(res.headers.get("Content-Type")).toMatch(/application\/json/);
        expect(await res.json()).toEqual({ message: "Method not allowed." });
      }
      expect(allows.size, `${path}: one Allow for every refusal`).toBeLessThanOrEqual(1);
      if (allows.size) expect([...allows][0].split(", "), path).toEqual(answered);
    });
  }
});
