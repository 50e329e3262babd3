/**
 * The import graph of app/ (and what it imports of db/), read from the source as text: every
 * `import`, `export … from` and `import()` a file holds, types included, resolved through the
 * `~/` and `@db/` aliases. Tests (*.test.*) are left out: they may import across the floors.
 *
 * The floors, top to bottom (docs/decisions/0007-house-rules.md): the pages (app/routes with
 * app/components, app/browser, root.tsx and entry.server.tsx beside them), app/http, app/models,
 * app/schemas, app/utils, db (its seed aside: a script). An import runs down, or within its floor; never up.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const ROOT = path.resolve(import.meta.dirname, "..");

/** The floors, lowest first; a file's floor is the first whose test it passes. */
const FLOORS = ["db", "utils", "schemas", "models", "http", "pages"] as const;
type Floor = (typeof FLOORS)[number];

export function floorOf(file: string): Floor | null {
  // The demo seed is a script over the whole house (it makes its rows through the models).
  if (/^db\/seed[^/]*\.ts$/.test(file)) return null;
  if (file.startsWith("db/")) return "db";
  if (file.startsWith("app/utils/")) return "utils";
  if (file.startsWith("app/schemas/")) return "schemas";
  if (file.startsWith("app/models/")) return "models";
  if (file.startsWith("app/http/")) return "http";
  if (/^app\/(routes|components|browser)\//.test(file) || /^app\/(root|entry\.server)\.tsx$/.test(file)) return "pages";
  return null;
}

const SOURCE = /\.(ts|tsx|mjs|js)$/;
const TEST = /\.test\.(ts|tsx)$/;

function walk(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return walk(rel);
    return SOURCE.test(entry.name) && !TEST.test(entry.name) && !entry.name.endsWith(".d.ts") ? [rel] : [];
  });
}

const EXTENSIONS = ["", ".ts", ".tsx", ".mjs", ".js", "/index.ts", "/index.tsx"];

/** The repository-relative file a specifier names, or null (a package, a stylesheet). */
function resolve(from: string, specifier: string): string | null {
  const bare = specifier.replace(/\?.*$/, "");
  let base: string;
  if (bare.startsWith("~/")) base = `app/${bare.slice(2)}`;
  else if (bare.startsWith("@db/")) base = `db/${bare.slice(4)}`;
  else if (bare.startsWith(".")) base = path.posix.join(path.posix.dirname(from), bare);
  else return null;
  for (const ext of EXTENSIONS) {
    const candidate = base + ext;
    if (SOURCE.test(candidate) && fs.existsSync(path.join(ROOT, candidate))) return candidate;
  }
  return null;
}

export type Graph = Map<string, Set<string>>;

/** Every source file of app/ and db/ (tests aside) with the files it imports. */
export function importGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of [...walk("app"), ...walk("db")]) {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const targets = new Set<string>();
    for (const { fileName } of importedFiles) {
      const target = resolve(file, fileName);
      if (target && target !== file) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The imports that run from a lower floor up to a higher one, as "from -> to". */
export function upwardImports(graph: Graph): string[] {
  const out: string[] = [];
  for (const [from, targets] of graph) {
    const floor = floorOf(from);
    if (floor === null) continue;
    for (const to of targets) {
      const target = floorOf(to);
      if (target !== null && FLOORS.indexOf(target) > FLOORS.indexOf(floor)) out.push(`${from} -> ${to}`);
    }
  }
  return out.sort();
}

/** The circles of the graph: each a list of the files that import each other, round (Tarjan's components). */
export function circles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const to of graph.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return out;
}
