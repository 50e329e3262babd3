/**
 * What a page publishes opens nothing (decision 5): on the demo data, every value that a /fair-draws
 * page or a /api/v1/fair-draws answer shows (each reference also in lower case and without its dashes)
 * is typed into every search box, picker, filter and address of the back office and the staff API by a
 * user of each seeded branch role. Nothing is granted (no grant row, no grant in the audit trail), and no
 * answer holds the slug or full phone of an entry or a registration the user's branch did
 * not reach before.
 */
import fs from "node:fs";
import { eq, type SQL } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { preregistrationScope } from "~/models/preregistration-reach.server";
import { branchCondition, type Scope } from "~/models/scope.server";
import { getSessionUser } from "~/models/user.server";
import { issueToken } from "~/http/api.server";
import { sessionStorage } from "~/http/session.server";
import { call, req } from "../route-helpers";

type Args = { request: Request; context: { clientAddress: string }; params: Record<string, string> };
type RouteModule = { loader?: (args: Args) => unknown; action?: (args: Args) => unknown };
const modules = import.meta.glob<RouteModule>("/app/routes/*.{ts,tsx}", { eager: true });

const PUBLIC_PAGES = ["fair-draws._index", "fair-draws.$date", "api.v1.fair-draws", "api.v1.fair-draws.$date"];
const REFERENCE = /^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/;
const READS_QUERY = /searchParams|parseTableParams|parseListQuery|parseQuery|apiQuery|request\.url/;
const SEARCH_NAMES = ["search", "phone", "q", "search[value]", "registrant", "citizenship_no", "ref"];

/** The back office's and the staff API's GET addresses, each with the names of its path's parameters. */
const staffLoaders = Object.entries(modules)
  .map(([file, mod]) => ({ name: file.replace(/^.*\/routes\//, "").replace(/\.tsx?$/, ""), mod }))
  .filter(({ name, mod }) => mod.loader && /^(admin|api\.v1)\./.test(name) && !PUBLIC_PAGES.includes(name))
  .map(({ name, mod }) => ({
    name,
    loader: mod.loader!,
    path: `/${name.replace(/\._index$/, "").replace(/\./g, "/")}`,
    params: name
      .split(".")
      .filter((part) => part.startsWith("$"))
      .map((part) => part.slice(1)),
  }))
  .map((route) => ({
    ...route,
    // Reads what is typed: its path has a parameter, or its module reads the query.
    typed:
      route.params.length > 0 ||
      READS_QUERY.test(
        fs.readFileSync(`app/routes/${route.name}.${route.name.startsWith("api") ? "ts" : "tsx"}`, "utf8"),
      ),
  }));
type Route = (typeof staffLoaders)[number];
/** The referrer picker a counter types into (POST {q}). */
const picker = modules["/app/routes/api.v1.registration.search.ts"].action!;
/** The boxes that find a customer: the pre-registration list (page and API, where a full phone grants) and the registration list. */
const FINDERS = [
  "admin.preregistration._index",
  "api.v1.preregistration",
  "admin.registration._index",
  "api.v1.registration",
];
/** A reference as shown, in lower case, and in lower case without its dashes. */
const formsOf = (ref: string) => [ref, ref.toLowerCase(), ref.replace(/-/g, "").toLowerCase()];

let published: string[] = [];
type Caller = { email: string; role: string; scope: Scope; token: string; cookie: string };
const callers: Caller[] = [];

/** Every scalar value of an answer, deep (a published record's text, JSON itself, read as its fields). */
function scalars(value: unknown, out: Set<string>) {
  if (value === null || value === undefined) return;
  if (typeof value === "string" && value.startsWith("{")) {
    try {
      return scalars(JSON.parse(value), out);
    } catch {
      // not JSON: a plain value
    }
  }
  if (typeof value === "string" || typeof value === "number") {
    const text = String(value).trim();
    if (text.length >= 3) out.add(text);
    return;
  }
  if (Array.isArray(value)) for (const v of value) scalars(v, out);
  else if (typeof value === "object") for (const v of Object.values(value)) scalars(v, out);
}

async function bodyOf(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

beforeAll(async () => {
  const { seed } = await import("@db/seed");
  await seed();
  const found = new Set<string>();
  const load = async (name: string, path: string, params: Record<string, string> = {}) => {
    const res = await call(
      modules[`/app/routes/${name}.${name.startsWith("api") ? "ts" : "tsx"}`].loader! as never,
      req("GET", path),
      params,
    );
    expect(res.status, path).toBe(200);
    const body = await bodyOf(res);
    scalars(body, found);
    return body as { data: unknown };
  };
  const days = (
    (await load("api.v1.fair-draws", "/api/v1/fair-draws")).data as { days: { date: string; draws: number }[] }
  ).days;
  await load("fair-draws._index", "/fair-draws");
  for (const day of days.filter((d) => d.draws > 0)) {
    await load("api.v1.fair-draws.$date", `/api/v1/fair-draws/${day.date}`, { date: day.date });
    await load("fair-draws.$date", `/fair-draws/${day.date}`, { date: day.date });
  }
  for (const value of [...found]) {
    if (REFERENCE.test(value)) {
      found.add(value.toLowerCase());
      found.add(value.replace(/-/g, "").toLowerCase());
    }
  }
  published = [...found];
  // A user of each seeded branch role, signed in by cookie and by token.
  const users = db.select().from(schema.users).all();
  const roles = db.select().from(schema.roles).all();
  const seen = new Set<number>();
  for (const u of users) {
    if (u.branch_id === null || u.deleted_at || seen.has(u.role_id)) continue;
    seen.add(u.role_id);
    const session = await sessionStorage.getSession();
    session.set("userId", u.id);
    const cookie = (await sessionStorage.commitSession(session)).split(";")[0];
    const sessionUser = getSessionUser(u.id)!;
    callers.push({
      email: u.email,
      role: roles.find((r) => r.id === u.role_id)!.title,
      scope: { branchId: u.branch_id },
      token: issueToken(u.id, false).token,
      cookie,
    });
    expect(sessionUser).toBeTruthy();
  }
}, 120_000);

/** What a branch does not reach: the slugs and phones of those entries and registrations. */
function unreached(scope: Scope): Set<string> {
  const P = schema.preregistrations;
  const R = schema.registrations;
  const reached = new Set(
    db
      .select({ id: P.id })
      .from(P)
      .where(preregistrationScope(scope) as SQL)
      .all()
      .map((r) => r.id),
  );
  const out: string[] = [];
  for (const p of db.select().from(P).all()) {
    if (!reached.has(p.id)) out.push(p.slug, p.phone);
  }
  const reachedRegistrations = new Set(
    db
      .select({ id: R.id })
      .from(R)
      .where(branchCondition(R.branch_id, scope) as SQL)
      .all()
      .map((r) => r.id),
  );
  for (const r of db.select().from(R).all()) {
    if (!reachedRegistrations.has(r.id)) out.push(r.slug, r.phone);
  }
  return new Set(out.filter((v) => v && v.length >= 6));
}

/** The tokens of an answer (letters, digits, "-" and "_"; a download's UTF-16 text read as its bytes). */
const tokensOf = (text: string) => new Set(text.replace(/\0/g, "").split(/[^A-Za-z0-9_-]+/));

describe("nothing a page publishes reaches a customer", () => {
  it("publishes the demo days' references, hashes and seeds", () => {
    expect(published.filter((v) => REFERENCE.test(v)).length).toBeGreaterThan(100);
    expect(callers.map((c) => c.role).sort()).toEqual(["Branch Admin", "Branch Manager", "Branch Staff"]);
    expect(staffLoaders.filter((r) => r.typed).length).toBeGreaterThan(30);
  });

  it("typed anywhere by each branch role, finds and grants nothing the branch did not reach before", async () => {
    const grants = () => db.select().from(schema.preregistrationGrants).all().length;
    const grantAudits = () =>
      db.select().from(schema.auditLog).where(eq(schema.auditLog.action, "preregistration.grant")).all().length;
    const grantsBefore = grants();
    const auditsBefore = grantAudits();
    const references = published.filter((v) => REFERENCE.test(v));
    // What names something (a reference in any form, a roll's input, a hash, a seed, a day, a place) and the rest.
    const names = (v: string) =>
      /[A-Za-z]/.test(v) && !/\s/.test(v) && !/^(https?:|\/)/.test(v)
        ? true
        : /^[0-9a-f]{64}$|^\d{4}-\d{2}-\d{2}$/.test(v);
    const identifiers = published.filter((v) => names(v) || /[A-Z][a-z]+ [A-Z]/.test(v));
    const others = published.filter((v) => !identifiers.includes(v));
    let calls = 0;
    const started = Date.now();
    for (const [c, caller] of callers.entries()) {
      const hidden = unreached(caller.scope);
      expect(hidden.size, caller.role).toBeGreaterThan(100);
      const check = async (res: Response, what: string) => {
        calls++;
        expect(res.status, `${caller.role}: ${what}`).toBeLessThan(500);
        const text = Buffer.from(await res.arrayBuffer()).toString("latin1");
        for (const token of tokensOf(text)) {
          if (hidden.has(token)) expect.fail(`${caller.role}: ${what} answered with ${token}`);
        }
        return res.status;
      };
      const get = async (route: Route, value: string) => {
        const query = SEARCH_NAMES.map((n) => `${encodeURIComponent(n)}=${encodeURIComponent(value)}`).join("&");
        const params = Object.fromEntries(route.params.map((p) => [p, value]));
        const path = route.path.replace(/\$[a-z]+/g, encodeURIComponent(value));
        const headers: Record<string, string> = route.name.startsWith("api.v1.")
          ? { Authorization: `Bearer ${caller.token}` }
          : { Cookie: caller.cookie };
        const res = await call(route.loader as never, req("GET", `${path}?${query}`, { headers }), params);
        return check(res, `GET ${path}?…=${value}`);
      };
      const pick = async (value: string) => {
        const body = { token: caller.token, json: { q: value } };
        await check(await call(picker as never, req("POST", "/api/v1/registration/search", body)), `picker q=${value}`);
      };
      // Every address once. One that reads neither its query nor its path answers the same whatever is typed;
      // one the role may not open refuses before reading anything typed (the permission comes first).
      const open: Route[] = [];
      for (const route of staffLoaders) {
        const status = await get(route, published[0]);
        if (route.typed && status !== 401 && status !== 403 && status !== 302) open.push(route);
      }
      const finders = open.filter((r) => FINDERS.includes(r.name));
      const rest = open.filter((r) => !FINDERS.includes(r.name));
      expect(finders.map((r) => r.name).sort(), caller.role).toEqual([...FINDERS].sort());
      // The boxes that find customers (and the list that grants): every identifier, in every form shown.
      for (const value of identifiers) {
        for (const route of finders) await get(route, value);
        await pick(value);
      }
      // Every other box and address: every reference, the roles taking them in turn, each in one of its forms.
      for (const [i, ref] of references.entries()) {
        if (i % callers.length !== c) continue;
        for (const [j, route] of rest.entries()) await get(route, formsOf(ref)[(i + j) % 3]);
      }
      // The values that name nothing (amounts, instants, rolls, labels, links): each once, in the boxes in turn.
      for (const [i, value] of others.entries()) {
        if (i % callers.length === c) await get(open[Math.floor(i / callers.length) % open.length], value);
      }
    }
    expect(grants()).toBe(grantsBefore);
    expect(grantAudits()).toBe(auditsBefore);
    fs.writeSync(1, `published values: ${published.length}; ${calls} answers read in ${Date.now() - started} ms\n`);
  }, 600_000);
});
