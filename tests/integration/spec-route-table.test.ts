// The product against the specification's route table (tests/spec/admin-routes.ts, written from the
// spec, not from the product): ADMIN_ROUTES, every module's declared permission, the seeded roles and
// the permissions all match it; and a user of each seeded role, at a branch or at head office, is let
// through exactly the routes the table opens to its role and sent to /admin from every other one.
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { action as loginAction } from "~/routes/login";
import { createUser, permissionsOfRole } from "~/models/user.server";
import { ADMIN_ROUTES, EVERY_PERMISSION, PERMISSIONS, SIDEBAR } from "~/utils/permissions";
import { readToast } from "~/http/toast.server";
import { makeBranch } from "../fixtures";
import { answerOf } from "../route-helpers";
import { ADMIN_MODULES, LAYOUT, SPLAT } from "../admin-modules";
import {
  SPEC_ADMIN_ROUTES,
  SPEC_INTENT_PERMISSIONS,
  SPEC_PERMISSIONS,
  SPEC_SEEDED_ROLES,
  type SpecPermission,
} from "../spec/admin-routes";

const product = (p: SpecPermission) => (p === "every" ? EVERY_PERMISSION : p);
const spec = new Map(SPEC_ADMIN_ROUTES.map((r) => [r.pattern, product(r.permission)]));
const ctx = { clientAddress: "10.4.0.2" };

describe("the product's table is the specification's", () => {
  it("the permissions are the specification's", () => {
    expect([...PERMISSIONS].sort()).toEqual([...SPEC_PERMISSIONS].sort());
  });

  it("ADMIN_ROUTES holds the same routes with the same permissions", () => {
    const mine = new Map(ADMIN_ROUTES.map((r) => [r.pattern, r.permission]));
    expect([...mine.keys()].sort()).toEqual([...spec.keys()].sort());
    for (const [pattern, permission] of spec) expect(mine.get(pattern), pattern).toBe(permission);
  });

  it("the sidebar is read from the table: a link per listed page, guarded by the page's permission but where the spec says otherwise", () => {
    // Spec 001 §2.1: "the dashboard link is also guarded by send-sms"; settings' "sidebar link needs update-settings".
    const linkGuard: Record<string, string> = { "/admin": "send-sms", "/admin/settings": "update-settings" };
    for (const link of SIDEBAR) {
      expect(spec.has(link.to), `${link.to} is not in the specification's table`).toBe(true);
      expect(link.permission, link.to).toBe(linkGuard[link.to] ?? spec.get(link.to));
    }
    expect(SIDEBAR.map((l) => l.to)).toEqual(expect.arrayContaining(["/admin", "/admin/settings", "/admin/sms"]));
    expect(new Set(SIDEBAR.map((l) => l.to)).size).toBe(SIDEBAR.length);
  });

  it("every route module declares the specification's permission", () => {
    const seen = new Set<string>();
    for (const { file, pattern, mod } of ADMIN_MODULES) {
      if (pattern === SPLAT) {
        expect(mod.handle?.permission, file).toBeNull();
        continue;
      }
      expect(spec.has(pattern), `${file}: ${pattern} is not in the specification's table`).toBe(true);
      expect(mod.handle?.permission, file).toBe(spec.get(pattern));
      seen.add(pattern);
    }
    for (const pattern of spec.keys()) expect(seen.has(pattern), `${pattern} has no module`).toBe(true);
  });

  it("every action that needs more than its page's permission declares the specification's", () => {
    for (const { file, pattern, mod } of ADMIN_MODULES) {
      const route = mod.handle?.permission ?? null;
      const beyond = Object.fromEntries(
        Object.entries(mod.handle?.intents ?? {}).filter(([, needs]) => needs !== null && needs !== route),
      );
      expect(beyond, file).toEqual(SPEC_INTENT_PERMISSIONS[pattern] ?? {});
    }
  });

  it("the migration seeds the roles the decisions name, each with its permissions", () => {
    for (const [slug, held] of Object.entries(SPEC_SEEDED_ROLES)) {
      const role = db
        .select()
        .from(schema.roles)
        .all()
        .find((r) => r.slug === slug);
      expect(role, slug).toBeDefined();
      const expected = held === "every" ? [...SPEC_PERMISSIONS] : [...held];
      expect([...permissionsOfRole(role!.id)].sort(), slug).toEqual(expected.sort());
    }
  });
});

describe("each seeded role opens exactly what the table gives it", () => {
  const sessions = new Map<string, string>();

  async function sessionAs(slug: string, branchId: number | null) {
    const role = db
      .select()
      .from(schema.roles)
      .all()
      .find((r) => r.slug === slug)!;
    const user = await createUser({
      first_name: slug,
      email: `spec-${slug}-${branchId ?? "office"}@example.test`,
      role_id: role.id,
      branch_id: branchId,
      password: "Secret-pass-9",
    });
    const res = (await loginAction({
      request: new Request("http://localhost/login", {
        method: "POST",
        body: new URLSearchParams({ email: user.email, password: "Secret-pass-9" }),
      }),
      context: ctx,
      params: {},
    })) as Response;
    return (res.headers.get("Set-Cookie") ?? "").split(";")[0];
  }

  const mayOpen = (role: string, permission: SpecPermission) => {
    const held = SPEC_SEEDED_ROLES[role];
    if (permission === null || held === "every") return true;
    if (permission === "every") return false;
    return held.includes(permission);
  };

  beforeAll(async () => {
    const branch = makeBranch().id;
    sessions.set("super-admin", await sessionAs("super-admin", null));
    sessions.set("branch-manager", await sessionAs("branch-manager", branch));
    sessions.set("branch-staff", await sessionAs("branch-staff", branch));
  });

  for (const role of Object.keys(SPEC_SEEDED_ROLES)) {
    it(`${role}: let through where the table allows, sent to /admin with the refusal everywhere else`, async () => {
      for (const rule of SPEC_ADMIN_ROUTES) {
        const path = rule.pattern.replace(/:[a-z]+/g, "not-a-record");
        for (const { file, mod } of ADMIN_MODULES.filter((m) => m.pattern === rule.pattern && m.file !== LAYOUT)) {
          for (const kind of ["loader", "action"] as const) {
            const fn = mod[kind];
            if (!fn) continue;
            const request = new Request(`http://localhost${path}`, {
              method: kind === "loader" ? "GET" : "POST",
              headers: { Cookie: sessions.get(role)!, Origin: "http://localhost" },
              ...(kind === "action" ? { body: new URLSearchParams({ intent: "none" }) } : {}),
            });
            const res = await answerOf(() => fn({ request, context: ctx, params: { slug: "not-a-record", id: "0" } }));
            const location = res instanceof Response ? res.headers.get("Location") : null;
            const cookie = res instanceof Response ? res.headers.get("Set-Cookie") : null;
            const toast = cookie
              ? (await readToast(new Request("http://localhost/", { headers: { Cookie: cookie.split(";")[0] } }))).toast
              : null;
            const refused = location === "/admin" && /do not have permission/.test(toast?.message ?? "");
            const label = `${role} ${kind} ${path} (${file.replace(/^.*\/routes\//, "")}, ${rule.permission ?? "login only"})`;
            expect(refused, label).toBe(!mayOpen(role, rule.permission));
            expect(location ?? "", label).not.toMatch(/^\/login/);
          }
        }
      }
    });
  }
});
