/**
 * The server's route matching as patched (patches/@remix-run+router+1.23.3.patch, decision 18): the ranked
 * branches and the matches of each path are kept, and each caller still gets matches of its own. The server
 * loads the router's CommonJS build, the one patched, so it is loaded the same way here.
 */
import { createRequire } from "node:module";
import type * as Router from "@remix-run/router";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const { matchRoutes } = require("@remix-run/router") as typeof Router;

const routes = [
  {
    id: "root",
    path: "/",
    children: [
      { id: "home", index: true },
      { id: "entry", path: "enquiry/:slug" },
      { id: "admin", path: "admin/*" },
    ],
  },
];

const ids = (path: string, from = routes) => matchRoutes(from, path)?.map((m) => m.route.id) ?? null;

describe("route matching", () => {
  it("matches a path the same way each time", () => {
    for (let i = 0; i < 3; i++) {
      expect(ids("/")).toEqual(["root", "home"]);
      expect(ids("/enquiry/abc")).toEqual(["root", "entry"]);
      expect(ids("/admin/users/7")).toEqual(["root", "admin"]);
      expect(ids("/nowhere/at/all")).toBeNull();
    }
    expect(matchRoutes(routes, "/enquiry/abc")![1].params).toEqual({ slug: "abc" });
  });

  it("gives each caller matches of its own: changing one answer changes no other", () => {
    matchRoutes(routes, "/enquiry/kept"); // now kept
    const first = matchRoutes(routes, "/enquiry/kept")!;
    (first[1].params as Record<string, string>).slug = "changed";
    first.pop();
    const second = matchRoutes(routes, "/enquiry/kept")!;
    expect(second).toHaveLength(2);
    expect(second[1].params).toEqual({ slug: "kept" });
    // The matches of one path share their params, as the router makes them.
    expect(second[0].params).toBe(second[1].params);
  });

  it("matches past the paths it keeps, and each routes array by its own routes", () => {
    for (let i = 0; i < 2500; i++) expect(matchRoutes(routes, `/enquiry/e${i}`)![1].params.slug).toBe(`e${i}`);
    expect(matchRoutes(routes, "/enquiry/e0")![1].params.slug).toBe("e0");
    const other = [{ id: "other-root", path: "/", children: [{ id: "other-entry", path: "enquiry/:slug" }] }];
    expect(ids("/enquiry/abc", other)).toEqual(["other-root", "other-entry"]);
    expect(ids("/enquiry/abc")).toEqual(["root", "entry"]);
  });
});
