// The back-office route/permission contract. Every route module under app/routes/admin* declares the
// permission it needs (`export const handle = { permission }`); this file fails when one declares
// nothing, when a declaration differs from the specification's table (ADMIN_ROUTES), and when a
// module's loader or action lets through an anonymous visitor or a user without the permission; and
// every row of the table has its module, which answers 200 on a real record to a user holding the permission.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { action as loginAction } from "~/routes/login";
import { createUser, permissionsOfRole } from "~/models/user.server";
import {
  ADMIN_ROUTES,
  EVERY_PERMISSION,
  permissionRefusal,
  PERMISSIONS,
  SEEDED_ROLES,
  type RouteRule,
  HEAD_OFFICE_PERMISSIONS,
} from "~/utils/permissions";
import { readToast } from "~/http/toast.server";
import { raiseFlag } from "~/models/integrity-flags.server";
import { ADDRESS_HEADER } from "~/http/auth.server";
import { randomSlug } from "~/utils/crypto.server";
import { makeAllocation, makeBikeModel, makeBranch, makePreregistration, makeUser } from "../fixtures";
import { makeRegistration, makeTestRide } from "../referral-fixtures";
import { answerOf } from "../route-helpers";
import { ADMIN_MODULES, LAYOUT, SPLAT } from "../admin-modules";
import { SPEC_SEEDED_ROLES } from "../spec/admin-routes";

const routes = ADMIN_MODULES;
type RouteModule = (typeof routes)[number]["mod"];

const ctx = { clientAddress: "10.4.0.1" };
const concrete = (pattern: string) => pattern.replace(/:[a-z]+/g, "some-slug");

let signIns = 0;
async function sessionFor(email: string) {
  // Each sign-in from its own address: the test signs in more users than one address may (login-ip).
  signIns++;
  const res = (await loginAction({
    request: new Request("http://localhost/login", {
      method: "POST",
      headers: { [ADDRESS_HEADER]: `10.5.${signIns >> 8}.${signIns & 255}` },
      body: new URLSearchParams({ email, password: "Secret-pass-9" }),
    }),
    context: ctx,
    params: {},
  })) as Response;
  return (res.headers.get("Set-Cookie") ?? "").split(";")[0];
}

/** A route module called as a browser would call it (a cookie, a method, an intent), summed up: status, redirect, toast. */
async function visit(
  fn: NonNullable<RouteModule["loader"]>,
  path: string,
  { cookie, method = "GET", intent = "delete" }: { cookie?: string; method?: string; intent?: string } = {},
): Promise<{ status: number; location: string | null; toast?: string }> {
  const headers: Record<string, string> = { Origin: "http://localhost" };
  if (cookie) headers.Cookie = cookie;
  const init: RequestInit = { method, headers };
  if (method !== "GET") init.body = new URLSearchParams({ intent, count: "5", amount: "50000", weight: "1" });
  const res = await answerOf(() =>
    fn({
      request: new Request(`http://localhost${path}`, init),
      context: ctx,
      params: { slug: "some-slug", id: "1", "*": "x" },
    }),
  );
  if (!(res instanceof Response)) return { status: 200, location: null };
  const out: { status: number; location: string | null; toast?: string } = {
    status: res.status,
    location: res.headers.get("Location"),
  };
  const setCookie = res.headers.get("Set-Cookie");
  const toast = setCookie
    ? (await readToast(new Request("http://localhost/", { headers: { Cookie: setCookie.split(";")[0] } }))).toast
    : null;
  if (toast) out.toast = toast.message;
  return out;
}

/**
 * A role holding exactly these permissions, with a user at a branch; at head office when one of them is
 * a head-office permission (a branch user never holds one, whatever its role).
 */
async function userHolding(name: string, permissions: string[]) {
  const role = db.insert(schema.roles).values({ slug: name, title: name }).returning().get();
  for (const p of db
    .select()
    .from(schema.permissions)
    .all()
    .filter((x) => permissions.includes(x.name))) {
    db.insert(schema.rolePermissions).values({ role_id: role.id, permission_id: p.id }).run();
  }
  const user = await createUser({
    first_name: "T",
    email: `${name}@example.test`,
    role_id: role.id,
    branch_id: permissions.some((p) => (HEAD_OFFICE_PERMISSIONS as readonly string[]).includes(p)) ? null : branchId,
    password: "Secret-pass-9",
  });
  return sessionFor(user.email);
}

/** A role holding exactly one permission (or none), with a user at a branch. */
const userWith = (permission: string | null) =>
  userHolding(`only-${permission ?? "none"}`, permission ? [permission] : []);

let branchId: number;
const sessions = new Map<string | null, string>();
let everything: string;
let allButOne: string;

beforeAll(async () => {
  branchId = makeBranch().id;
  const superAdmin = db
    .select()
    .from(schema.roles)
    .all()
    .find((r) => r.slug === "super-admin")!;
  const admin = await createUser({
    first_name: "All",
    email: "all@example.test",
    role_id: superAdmin.id,
    branch_id: null,
    password: "Secret-pass-9",
  });
  everything = await sessionFor(admin.email);
  const almost = db.insert(schema.roles).values({ slug: "all-but-one", title: "All but one" }).returning().get();
  for (const p of db
    .select()
    .from(schema.permissions)
    .all()
    .filter((x) => x.name !== "update-settings")) {
    db.insert(schema.rolePermissions).values({ role_id: almost.id, permission_id: p.id }).run();
  }
  const almostUser = await createUser({
    first_name: "Almost",
    email: "almost@example.test",
    role_id: almost.id,
    branch_id: null,
    password: "Secret-pass-9",
  });
  allButOne = await sessionFor(almostUser.email);
  sessions.set(null, await userWith(null));
  for (const p of PERMISSIONS) sessions.set(p, await userWith(p));
});

describe("route/permission declarations", () => {
  it("finds the back-office route modules", () => {
    expect(routes.length).toBeGreaterThan(20);
  });

  it("every back-office module declares a permission (or null for login only)", () => {
    for (const { file, mod } of routes) {
      expect(mod.handle && "permission" in mod.handle, `${file} has no handle.permission`).toBe(true);
      const p = mod.handle!.permission;
      if (p !== null && p !== EVERY_PERMISSION) expect(PERMISSIONS, file).toContain(p);
    }
  });

  it("every declaration is the one of the specification's table", () => {
    const table = new Map(ADMIN_ROUTES.map((r) => [r.pattern, r.permission]));
    for (const { file, pattern, mod } of routes) {
      if (pattern === SPLAT) {
        expect(mod.handle?.permission, file).toBeNull();
        continue;
      }
      expect(table.has(pattern), `${file}: ${pattern} is not in ADMIN_ROUTES`).toBe(true);
      expect(mod.handle?.permission, file).toBe(table.get(pattern));
    }
    for (const r of ADMIN_ROUTES)
      if (r.permission && r.permission !== EVERY_PERMISSION) expect(PERMISSIONS).toContain(r.permission);
  });
});

describe("each module enforces its own declaration", () => {
  for (const { file, pattern, mod } of routes) {
    const permission = mod.handle?.permission ?? null;
    const path = concrete(pattern);
    const fns = (["loader", "action"] as const).filter((k) => typeof mod[k] === "function");
    for (const kind of fns) {
      const fn = mod[kind]!;
      const method = kind === "loader" ? "GET" : "POST";
      it(`${file.replace(/^.*\/routes\//, "")} ${kind} (${permission ?? "login only"})`, async () => {
        const anon = await visit(fn, path, { method });
        expect(anon.status).toBe(302);
        expect(anon.location).toMatch(/^\/login\?redirectTo=/);
        if (permission) {
          const refused = { status: 302, location: "/admin", toast: permissionRefusal(permission) };
          expect(await visit(fn, path, { cookie: sessions.get(null), method })).toEqual(refused);
          // Holding every permission but one is still not enough for EVERY_PERMISSION; one other permission never is.
          if (permission === EVERY_PERMISSION) {
            expect(await visit(fn, path, { cookie: allButOne, method }), "all but one").toEqual(refused);
          }
          for (const other of PERMISSIONS.filter((p) => p !== permission)) {
            expect(await visit(fn, path, { cookie: sessions.get(other), method }), `with only ${other}`).toEqual(
              refused,
            );
          }
        }
        if (kind === "loader" && file !== LAYOUT) {
          // Holding every permission, the guard lets the request through: the page answers, or its record is not found.
          const withIt = await visit(fn, path, { cookie: everything });
          expect(withIt.location ?? "", file).not.toMatch(/^\/login/);
          expect(withIt.toast ?? "", file).not.toMatch(/do not have permission/);
        }
      });
    }
  }
});

describe("each action's intents (handle.intents)", () => {
  const withIntents = routes.filter((r) => r.mod.handle?.intents);

  it("every intent a module's forms post is declared, and every module whose action reads one declares them", () => {
    // A form may post to another module's action (the draw page's Notify posts to the registration's page).
    const declared = new Set(withIntents.flatMap((r) => Object.keys(r.mod.handle!.intents!)));
    for (const { file, mod } of routes) {
      const source = readFileSync(`.${file}`, "utf8");
      const posted = [...source.matchAll(/name="intent"\s+value="([a-z-]+)"/g)].map((m) => m[1]);
      const reads = mod.action ? /\bintent\b/.test(mod.action.toString()) : false;
      if (posted.length || reads) expect(mod.handle?.intents, `${file} posts or reads an intent`).toBeTypeOf("object");
      for (const value of posted) expect([...declared], file).toContain(value);
    }
    expect(withIntents.length).toBeGreaterThanOrEqual(18);
  });

  for (const { file, pattern, mod } of withIntents) {
    const name = file.replace(/^.*\/routes\//, "");
    const route = mod.handle!.permission ?? null;
    const intents = Object.entries(mod.handle!.intents!);

    it(`${name}: an unknown intent is a 400, whoever asks`, async () => {
      expect(mod.action, name).toBeTypeOf("function");
      const answer = await visit(mod.action!, concrete(pattern), {
        cookie: everything,
        method: "POST",
        intent: "no-such",
      });
      expect(answer.status, name).toBe(400);
    });

    for (const [intent, needs] of intents) {
      it(`${name}: intent=${intent} needs ${needs ?? route ?? "login"}`, async () => {
        const post = (cookie: string | undefined) =>
          visit(mod.action!, concrete(pattern), { cookie, method: "POST", intent });
        if (needs && needs !== route) {
          // The route's permission alone is not enough for this intent.
          const routeOnly = route === EVERY_PERMISSION ? everything : sessions.get(route);
          expect(await post(routeOnly), `${intent} with only ${route}`).toEqual({
            status: 302,
            location: "/admin",
            toast: permissionRefusal(needs),
          });
        }
        // With the route's and the intent's permission, the intent is heard (whatever the record answers).
        const both = await userHolding(
          `${name}-${intent}`.replace(/[^a-z0-9]+/gi, "-").toLowerCase(),
          [route, needs].filter((p) => p !== null && p !== EVERY_PERMISSION) as string[],
        );
        const heard = await post(route === EVERY_PERMISSION ? everything : both);
        expect(heard.status, `${intent} heard`).not.toBe(400);
        expect(heard.toast ?? "", `${intent} heard`).not.toMatch(/do not have permission/);
      });
    }
  }
});

describe("the catalogue routes of spec 001 §2.1", () => {
  // Branches, bike models and videos: every route of the table has its module, and a user holding the
  // permission gets the page (200) for a real record: no 404 left behind the guard.
  const CATALOGUE = ADMIN_ROUTES.filter((r) => /^\/admin\/(branch|bike-model|video)(\/|$)/.test(r.pattern));

  it("covers the twelve routes, each with its own module", () => {
    expect(CATALOGUE.map((r) => r.pattern)).toEqual([
      "/admin/branch",
      "/admin/branch/create",
      "/admin/branch/:slug",
      "/admin/branch/:slug/edit",
      "/admin/bike-model",
      "/admin/bike-model/create",
      "/admin/bike-model/:slug",
      "/admin/bike-model/:slug/edit",
      "/admin/video",
      "/admin/video/create",
      "/admin/video/:id",
      "/admin/video/:id/edit",
    ]);
    const patterns = new Set(routes.map((r) => r.pattern));
    for (const r of CATALOGUE) expect(patterns.has(r.pattern), `${r.pattern} has no module`).toBe(true);
  });

  it("each answers 200 with its page for a user holding the permission", async () => {
    const slugs: Record<string, string> = {
      // The single-permission users work at this branch; a branch is in their reach when it is their own.
      branch: db
        .select()
        .from(schema.branches)
        .all()
        .find((b) => b.id === branchId)!.slug,
      "bike-model": makeBikeModel("Route Table Model").slug,
      video: db
        .insert(schema.videos)
        .values({ slug: randomSlug(), title: "Route Table Video", url: "https://example.com/v", amount: 50000 })
        .returning()
        .get().slug,
    };
    for (const rule of CATALOGUE) {
      const area = rule.pattern.split("/")[2];
      const path = rule.pattern.replace(/:[a-z]+/, slugs[area]);
      const { mod } = routes.find((r) => r.pattern === rule.pattern)!;
      const args = { slug: slugs[area], id: slugs[area] };
      const cookie = sessions.get(rule.permission as string)!;
      const res = await answerOf(() =>
        mod.loader!({
          request: new Request(`http://localhost${path}`, { headers: { Cookie: cookie } }),
          context: ctx,
          params: args,
        }),
      );
      const status = res instanceof Response ? res.status : 200;
      expect(status, `${path} with only ${rule.permission}`).toBe(200);
      expect(res, path).toBeTypeOf("object");
    }
  });

  it("a back-office URL not built yet answers inside the shell (the splat has the shell's error page)", async () => {
    const splat = routes.find((r) => r.pattern === SPLAT)!;
    expect((splat.mod as { ErrorBoundary?: unknown }).ErrorBoundary).toBeTypeOf("function");
    for (const { mod, pattern } of routes.filter((r) => CATALOGUE.some((c) => c.pattern === r.pattern)))
      expect((mod as { ErrorBoundary?: unknown }).ErrorBoundary, pattern).toBeTypeOf("function");
  });
});

describe("every route of the table (spec 001 §2.1, spec 000 §2)", () => {
  it("every row of ADMIN_ROUTES has its route module", () => {
    const patterns = new Set(routes.map((r) => r.pattern));
    for (const r of ADMIN_ROUTES) expect(patterns.has(r.pattern), `${r.pattern} has no module`).toBe(true);
  });

  it("each answers 200 with its page for a user holding its permission, on a real record", async () => {
    const DAY = "2031-03-14";
    const unverified = makePreregistration({ branch_id: branchId });
    const verified = () => makePreregistration({ branch_id: branchId, is_verified: true, status: "verified" });
    const drawn = makeRegistration(branchId, { status: "drawn", confirmed_at: "2026-01-01T00:00:00.000Z" });
    const pending = makeRegistration(branchId);
    const broadcast = db
      .insert(schema.smsBroadcasts)
      .values({
        type: "MOBILE",
        text: "Route table",
        total: 1,
        stored: 1,
        sent: 1,
        status: "done",
        scope_branch_id: branchId,
        prepared_at: "2026-01-01T00:00:00.000Z",
      })
      .returning()
      .get();
    db.insert(schema.smsBroadcastMobiles)
      .values({ broadcast_id: broadcast.id, mobiles: JSON.stringify(["9851000001"]), count: 1 })
      .run();
    // The record each route with a parameter opens, within the reach of the users at branchId.
    const records: Record<string, string> = {
      "/admin/preregistration/:slug": unverified.slug,
      "/admin/preregistration/:slug/edit": unverified.slug,
      "/admin/preregistration/:slug/verify": unverified.slug,
      "/admin/preregistration/:slug/draw": verified().slug,
      "/admin/registration/create/:slug": verified().slug,
      "/admin/registration/:slug": drawn.slug,
      "/admin/registration/:slug/edit": drawn.slug,
      "/admin/registration/:slug/verify": pending.slug,
      "/admin/registration/:slug/draw": drawn.slug,
      "/admin/user/:slug": (await makeUser("branch-staff", branchId)).slug,
      // A user may edit only users whose permissions it holds too: one whose role holds none.
      "/admin/user/:slug/edit": db
        .select()
        .from(schema.users)
        .all()
        .find((u) => u.email === "only-none@example.test")!.slug,
      "/admin/branch/:slug": db
        .select()
        .from(schema.branches)
        .all()
        .find((b) => b.id === branchId)!.slug,
      "/admin/bike-model/:slug": makeBikeModel("Every Route Model").slug,
      "/admin/video/:id": db
        .insert(schema.videos)
        .values({ slug: randomSlug(), title: "Every Route Video", url: "https://example.com/e", amount: 100000 })
        .returning()
        .get().slug,
      "/admin/scheme/:id": String(
        makeAllocation({
          type: "registration_branch",
          branch_id: branchId,
          date: DAY,
          amount: 5000,
          count: 2,
          probability: 10,
        }).id,
      ),
      "/admin/sms/:id": String(broadcast.id),
      "/admin/test-ride/:slug": makeTestRide(branchId).slug,
      "/admin/integrity/:id": String(
        raiseFlag(db, {
          reason: "remade-entry",
          subjectType: "entry",
          subjectKey: String(unverified.id),
          branchId,
          userId: null,
          strength: 35,
          evidence: { subject: { label: "An entry" }, summary: "Made again", figures: [], rows: [] },
          entries: [unverified.id],
        }).id,
      ),
    };
    records["/admin/branch/:slug/edit"] = records["/admin/branch/:slug"];
    records["/admin/bike-model/:slug/edit"] = records["/admin/bike-model/:slug"];
    records["/admin/video/:id/edit"] = records["/admin/video/:id"];
    // The registration form also needs update-registration (the Edit button's permission, spec 000 §2).
    const editor = await userHolding("read-and-update-registration", ["read-registration", "update-registration"]);
    const cookieFor = (rule: RouteRule) =>
      rule.pattern === "/admin/registration/:slug/edit"
        ? editor
        : rule.permission === EVERY_PERMISSION
          ? everything
          : sessions.get(rule.permission)!;

    for (const rule of ADMIN_ROUTES) {
      const param = rule.pattern.match(/:([a-z]+)/)?.[1];
      if (param) expect(records[rule.pattern], `${rule.pattern} has no record`).toBeTruthy();
      const path = param ? rule.pattern.replace(`:${param}`, records[rule.pattern]) : rule.pattern;
      // "/admin" is the layout's and the dashboard's.
      for (const { file, mod } of routes.filter((r) => r.pattern === rule.pattern)) {
        const res = await answerOf(() =>
          mod.loader!({
            request: new Request(`http://localhost${path}`, { headers: { Cookie: cookieFor(rule) } }),
            context: ctx,
            params: param ? { [param]: records[rule.pattern] } : {},
          }),
        );
        const label = `${path} (${file.replace(/^.*\/routes\//, "")}) with ${rule.permission ?? "login only"}`;
        if (res instanceof Response) {
          expect(res.status, `${label} → ${res.headers.get("Location") ?? (await res.text())}`).toBe(200);
        } else {
          const d = res as { type?: string; init?: { status?: number } } | null;
          expect(d?.type === "DataWithResponseInit" ? (d.init?.status ?? 200) : 200, label).toBe(200);
          expect(res, label).toBeTypeOf("object");
        }
      }
    }
  });
});

describe("seeded roles", () => {
  it("the migration's seeded roles hold exactly the permissions of SEEDED_ROLES", () => {
    expect(SEEDED_ROLES.map((r) => r.slug).sort()).toEqual(Object.keys(SPEC_SEEDED_ROLES).sort());
    for (const role of SEEDED_ROLES) {
      const row = db
        .select()
        .from(schema.roles)
        .all()
        .find((r) => r.slug === role.slug)!;
      expect(row.title).toBe(role.title);
      expect([...permissionsOfRole(row.id)].sort()).toEqual([...role.permissions].sort());
    }
  });
});
