// Every back-office route, reached by the spellings of its URL that the router also accepts (letter
// case, percent-encoding, double and trailing slashes, the .data and ?_data= data requests), as users
// without its permission, with GET and POST: each is refused and nothing in the database changes.
// Over HTTP against the built server, once (the browser plays no part), in the "access" project that
// runs after the others, so no other test changes the database while it watches it.
import { expect, test, type APIRequestContext } from "@playwright/test";
import fs from "node:fs";
import { ADMIN_ROUTES } from "../../app/utils/permissions";
import { PASSWORD, readDb, USERS } from "./helpers";

const WATCHED_TABLES = [
  "allocations",
  "settings",
  "preregistrations",
  "registrations",
  "test_rides",
  "users",
  "roles",
  "role_permissions",
  "branches",
  "bike_models",
  "videos",
  "draws",
  "sms_broadcasts",
  "sms_broadcast_mobiles",
];

function snapshot(): string {
  return readDb((db) =>
    JSON.stringify(WATCHED_TABLES.map((t) => db.prepare(`select * from ${t} order by rowid`).all())),
  );
}

/** Real records, so that a request let through by mistake would find something to show or change. */
function realParams(): Record<string, string> {
  return readDb((db) => {
    const one = (sql: string) => String((db.prepare(sql).get() as { v: string | number }).v);
    return {
      preregistration: one("select slug v from preregistrations where deleted_at is null order by id limit 1"),
      registration: one("select slug v from registrations where deleted_at is null order by id limit 1"),
      scheme: one("select id v from allocations order by id limit 1"),
      "test-ride": one("select slug v from test_rides where deleted_at is null order by id limit 1"),
      branch: one("select slug v from branches where deleted_at is null order by id limit 1"),
      "bike-model": one("select slug v from bike_models where deleted_at is null order by id limit 1"),
      video: one("select slug v from videos where deleted_at is null order by id limit 1"),
    };
  });
}

function concrete(pattern: string, params: Record<string, string>): string {
  const area = pattern.split("/")[2];
  return pattern.replace(/:[a-z]+/g, params[area] ?? "no-such-record");
}

/** The route id ("routes/admin.scheme._index") of each pattern that has a module, for ?_data=. */
const ROUTE_IDS = new Map(
  fs
    .readdirSync("app/routes")
    .filter((f) => /^admin\..*\.tsx$/.test(f))
    .map((f) => {
      const id = f.replace(/\.tsx$/, "");
      const parts = id
        .split(".")
        .filter((p) => p !== "_index")
        .map((p) => (p.startsWith("$") ? `:${p.slice(1)}` : p));
      return [`/${parts.join("/")}` as string, `routes/${id}`] as const;
    }),
);
const routeId = (pattern: string) => ROUTE_IDS.get(pattern) ?? "routes/admin.$";

const encodeFirstLetter = (segment: string) =>
  segment.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function variants(path: string, pattern: string): string[] {
  const [, admin, ...rest] = path.split("/");
  const tail = rest.join("/");
  const mixed = path
    .split("")
    .map((c, i) => (i % 2 ? c.toUpperCase() : c))
    .join("");
  return [
    path.toUpperCase(),
    `/${admin}/${tail.toUpperCase()}`,
    mixed,
    `/${admin}/${rest.map(encodeFirstLetter).join("/")}`,
    `/${admin.replace("a", "%61")}/${tail}`,
    `/${admin}//${tail}`,
    `/${path}`,
    `${path}/`,
    `${path}.data`,
    `/${admin}/${tail.toUpperCase()}.data`,
    `${path}?_data=${encodeURIComponent(routeId(pattern))}`,
    `/${admin}/${tail.toUpperCase()}?_data=${encodeURIComponent(routeId(pattern))}`,
  ].filter((v) => v !== path && !v.endsWith("//"));
}

/** Refused: a redirect to /admin or /login (plain, single-fetch or ?_data= form), no such page, or a legacy ?_data= request turned away. */
function refused(status: number, headers: Record<string, string>, body: string): boolean {
  if (status === 400 && body.includes("Unsupported request.")) return true;
  const target = headers.location ?? headers["x-remix-redirect"] ?? "";
  if ([301, 302, 303, 202, 204].includes(status) && /^\/(admin|login)([?#]|$)/.test(target)) return true;
  if (status === 202 && /"SingleFetchRedirect"/.test(body) && /"\/admin"|"\/login/.test(body)) return true;
  return status === 404 || status === 405;
}

async function as(
  playwright: { request: { newContext: (o: object) => Promise<APIRequestContext> } },
  baseURL: string,
  email: string,
) {
  const ctx = await playwright.request.newContext({ baseURL, maxRedirects: 0 });
  const res = await ctx.post("/login", { form: { email, password: PASSWORD, redirectTo: "/admin" } });
  expect(res.status()).toBe(302);
  return ctx;
}

test("every back-office route refuses, however its URL is spelt, a user without its permission", async ({
  playwright,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const staffPermissions = [
    "create-preregistration",
    "read-registration",
    "create-registration",
    "update-registration",
  ];
  const nobody = await as(playwright, baseURL!, USERS.nobody);
  const staff = await as(playwright, baseURL!, USERS.staff);
  const params = realParams();
  const before = snapshot();
  const letThrough: string[] = [];
  let tried = 0;
  for (const rule of ADMIN_ROUTES) {
    if (!rule.permission) continue;
    const users: [string, APIRequestContext][] = [["nobody", nobody]];
    if (!staffPermissions.includes(rule.permission)) users.push(["staff", staff]);
    const path = concrete(rule.pattern, params);
    for (const url of variants(path, rule.pattern)) {
      for (const [who, ctx] of users) {
        for (const method of ["GET", "POST"] as const) {
          const full = `${baseURL}${url}`;
          const res =
            method === "GET"
              ? await ctx.get(full)
              : await ctx.post(full, {
                  headers: { Origin: baseURL! },
                  form: { intent: "second", amount: "50000", weight: "1", count: "5", type: "preregistration_public" },
                });
          tried++;
          const body = await res.text();
          if (!refused(res.status(), res.headers(), body))
            letThrough.push(`${who} ${method} ${url} → ${res.status()} ${res.headers().location ?? ""}`);
        }
      }
    }
  }
  expect(letThrough, `let through (of ${tried} requests)`).toEqual([]);
  expect(tried).toBeGreaterThan(500);
  expect(snapshot()).toBe(before);
});
