/**
 * Vite plugin for the public pages' enhancement scripts (app/browser/*.ts).
 *
 *   import prereg from "~/browser/preregistration.ts?public-script";
 *   // prereg.code: the script bundled and minified, which the page inlines with its CSP nonce
 *
 * Each entry is bundled alone by esbuild (an IIFE, minified, for older phone browsers), so
 * a page gets only its own few hundred bytes, never the framework bundle. Why inline rather
 * than a hashed file: docs/decisions/0010-public-scripts-and-csp.md. Values a script
 * imports from app/schemas/* are evaluated at build time and inlined as JSON (the filter
 * rules stay in one place, the schema module and zod stay on the server); importing anything
 * else from there (a function) fails the build.
 */
import { build, type Plugin as EsbuildPlugin } from "esbuild";
import fs from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

const QUERY = "?public-script";
/** A script loaded only on demand (the draw checker's BLS step): written for browsers with BigInt. */
const ON_DEMAND_QUERY = "?on-demand-script";
const ON_DEMAND_TARGET = "es2020";
/** Browsers the scripts are written down to (phones a few years old). */
export const PUBLIC_SCRIPT_TARGET = "es2017";

type Alias = Record<string, string>;

function resolveTs(base: string): string {
  for (const f of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) {
    if (fs.existsSync(f) && fs.statSync(f).isFile()) return f;
  }
  throw new Error(`public-scripts: cannot resolve ${base}`);
}

/** Plain data only (what JSON keeps as it is): strings, numbers, booleans, null, arrays and plain objects of them. */
function isPlainData(v: unknown): boolean {
  if (v === null || ["string", "number", "boolean"].includes(typeof v)) return true;
  if (Array.isArray(v)) return v.every(isPlainData);
  if (typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype)
    return Object.values(v as object).every(isPlainData);
  return false;
}

/** The module's plain-data exports, from running it once in Node (bundled with its dependencies). */
async function evaluateModule(file: string, alias: Alias): Promise<Record<string, unknown>> {
  const out = await build({
    entryPoints: [file],
    bundle: true,
    platform: "node",
    format: "esm",
    write: false,
    alias,
    logLevel: "silent",
  });
  const code = out.outputFiles[0].text;
  return (await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`)) as Record<
    string,
    unknown
  >;
}

function buildTimeValues(appDir: string, alias: Alias): EsbuildPlugin {
  return {
    name: "build-time-values",
    setup(b) {
      b.onResolve({ filter: /^~\/schemas\// }, (args) => ({
        path: resolveTs(path.join(appDir, args.path.slice(2))),
        namespace: "build-time",
      }));
      b.onLoad({ filter: /.*/, namespace: "build-time" }, async (args) => {
        const values = await evaluateModule(args.path, alias);
        const contents = Object.entries(values)
          .filter(([, v]) => isPlainData(v))
          .map(([k, v]) => `export const ${k} = ${JSON.stringify(v)};`)
          .join("\n");
        return { contents, loader: "js", watchFiles: [args.path] };
      });
    },
  };
}

/** One browser entry bundled and minified; also the source files it read (for watching). */
export async function compilePublicScript(
  file: string,
  alias: Alias,
  target = PUBLIC_SCRIPT_TARGET,
): Promise<{ code: string; inputs: string[] }> {
  const appDir = alias["~"];
  const out = await build({
    entryPoints: [file],
    bundle: true,
    format: "iife",
    minify: true,
    target,
    legalComments: "none",
    write: false,
    metafile: true,
    alias,
    logLevel: "silent",
    plugins: [buildTimeValues(appDir, alias)],
  });
  // An IIFE of typed module code needs no "use strict" prologue (13 bytes on every page).
  const code = out.outputFiles[0].text.trim().replace(/^"use strict";/, "");
  // The code may be written inside a <script> element of a page.
  if (/<\/script|<!--/i.test(code)) throw new Error(`public-scripts: ${file} contains "</script" or "<!--"`);
  const inputs = Object.keys(out.metafile.inputs)
    .filter((f) => !f.includes(":"))
    .map((f) => path.resolve(f));
  return { code, inputs };
}

export function publicScripts({ alias }: { alias: Alias }): Plugin {
  let isBuild = false;
  return {
    name: "public-scripts",
    enforce: "pre",
    configResolved(config) {
      isBuild = config.command === "build";
    },
    async load(id, options) {
      const query = [QUERY, ON_DEMAND_QUERY].find((q) => id.endsWith(q));
      if (!query) return null;
      const file = id.slice(0, -query.length);
      // Public pages are never hydrated: the browser bundle needs no copy of the code.
      if (isBuild && !options?.ssr) return `export default { code: "" };`;
      const target = query === ON_DEMAND_QUERY ? ON_DEMAND_TARGET : PUBLIC_SCRIPT_TARGET;
      const { code, inputs } = await compilePublicScript(file, alias, target);
      for (const input of inputs) this.addWatchFile(input);
      return `export default ${JSON.stringify({ code })};`;
    },
  };
}
