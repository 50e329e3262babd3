/**
 * The floors of the house, read from the imports of app/ and db/ (tests/import-graph.ts): no import
 * runs from a lower floor up (pages → http → models → schemas → utils → db) and no files import each
 * other round in a circle. Lint refuses the same upward imports where they are written
 * (eslint.config.js); this walks every file's imports, types and `export … from` included.
 */
import { describe, expect, it } from "vitest";
import { circles, floorOf, importGraph, upwardImports, type Graph } from "../import-graph";

const graph = importGraph();

describe("the floors of app/", () => {
  it("reads the whole house: every floor has its files, and each file's imports", () => {
    const floors = new Set([...graph.keys()].map(floorOf));
    expect([...floors].filter(Boolean).sort()).toEqual(["db", "http", "models", "pages", "schemas", "utils"]);
    // The edge imports the models; the models import the vocabulary below them.
    expect(graph.get("app/http/auth.server.ts")).toContain("app/models/user.server.ts");
    expect(graph.get("app/models/allocation.server.ts")).toContain("app/utils/failure.ts");
  });

  it("has no import that runs from a lower floor up", () => {
    expect(upwardImports(graph)).toEqual([]);
  });

  it("has no circle of imports", () => {
    expect(circles(graph)).toEqual([]);
  });

  it("would see an upward import and a circle", () => {
    const tiny: Graph = new Map([
      ["app/routes/page.tsx", new Set(["app/http/edge.server.ts"])],
      ["app/http/edge.server.ts", new Set(["app/utils/word.ts"])],
      ["app/utils/word.ts", new Set(["app/http/edge.server.ts"])],
    ]);
    expect(upwardImports(tiny)).toEqual(["app/utils/word.ts -> app/http/edge.server.ts"]);
    expect(circles(tiny)).toEqual([["app/http/edge.server.ts", "app/utils/word.ts"]]);
  });
});
