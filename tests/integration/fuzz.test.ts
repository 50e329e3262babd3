// Property-based fuzzing of every /api/v1 call and every public form: generated payloads (wrong types,
// missing and extra fields, huge, unicode, NUL, RTL, formula-, SQL- and HTML-like strings, wrong and
// missing content types, broken JSON, truncated multipart, bad percent-encoding), as anonymous and as
// each seeded role. The public forms are every route outside /admin and /api/v1 that exports an action.
// A call that stores or edits a record also gets near-valid bodies (a valid body with one or two
// fields replaced), so rows are really stored. No answer may be a 5xx; every row stored or changed
// afterwards must pass its call's zod schema unchanged, and every row the tables' invariants.
// Seeded: FUZZ_SEED replays a run; FUZZ_RUNS sets the requests per call and caller (and body family).
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { z } from "zod";
import { db, schema } from "@db/index";
import { amountsForType } from "~/utils/prize-constants";
import { roleBySlug } from "~/models/user.server";
import { allocationSchema } from "~/schemas/allocation";
import { bikeModelSchema } from "~/schemas/bike-model";
import { BRANCH_FIELDS, branchSchema } from "~/schemas/branch";
import { preregistrationSchema, SOURCE_OPTIONS } from "~/schemas/preregistration";
import { PAYMENT_MODES, registrationUpdateSchema } from "~/schemas/registration";
import { testRideSchema } from "~/schemas/test-ride";
import { SEXES, userUpdateSchema } from "~/schemas/user";
import { videoSchema } from "~/schemas/video";
import { issueToken } from "~/http/api.server";
import { ADDRESS_HEADER } from "~/http/auth.server";
import { randomSlug } from "~/utils/crypto.server";
import { kathmanduDate } from "~/utils/time";
import { makeAllocation, makeBikeModel, makeBranch, makePreregistration, makeUser } from "../fixtures";
import { makeRegistration } from "../referral-fixtures";
import { clearOfKathmanduMidnight } from "../clock";

// These tests date pools and filters "today": none starts within 20 s of a Kathmandu midnight.
beforeEach(() => clearOfKathmanduMidnight(20_000));

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 24);

type Args = { request: Request; context: { clientAddress: string }; params: Record<string, string> };
type RouteModule = { loader?: (a: Args) => Promise<unknown>; action?: (a: Args) => Promise<unknown> };

const apiModules = import.meta.glob<RouteModule>("/app/routes/api.v1.*.ts", { eager: true });
/** Every route outside the back office and the API; the public forms are those with an action. */
const publicRoutes = import.meta.glob<RouteModule>(
  ["/app/routes/*.{ts,tsx}", "!/app/routes/admin.*", "!/app/routes/api.*", "!/app/routes/*.test.*"],
  { eager: true },
);
const publicForms = Object.fromEntries(Object.entries(publicRoutes).filter(([, mod]) => mod.action));

/** "/app/routes/api.v1.registration.$slug.notify.ts" → "/api/v1/registration/:slug/notify". */
function pathOf(file: string): string {
  const id = file.replace(/^.*\/routes\//, "").replace(/\.tsx?$/, "");
  return `/${id
    .split(".")
    .filter((p) => p !== "_index")
    .map((p) => (p.startsWith("$") ? `:${p.slice(1) || "*"}` : p))
    .join("/")}`;
}

// ------------------------------------------------------------------ payloads

const NASTY = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u202eevil\u202c",
  "=1+1",
  "+SUM(A1:A9)",
  "-2+3",
  "@cmd",
  "' OR 1=1 --",
  "'; DROP TABLE users; --",
  "<script>alert(1)</script>",
  '<img src=x onerror="alert(1)">',
  "javascript:alert(1)",
  "%00%ff%zz",
  "../../etc/passwd",
  "9800000000",
  "+9779812345678",
  "९८४१२३४५६७",
  "राम बहादुर",
  "null",
  "undefined",
  "NaN",
  "1e309",
  "-1",
  "0",
  "99999999999999999999",
  "2026-02-30",
  "abc",
  "true",
  "on",
  "__proto__",
];

const FIELDS = [
  "name",
  "address",
  "email",
  "phone",
  "citizenship_no",
  "shared",
  "screenshot",
  "screenshot_ref",
  "bike_model_id",
  "source",
  "note",
  "send_sms",
  "nearest_branch_id",
  "code",
  "otp",
  "type",
  "branch_id",
  "branch",
  "date",
  "from",
  "to",
  "count",
  "amount",
  "probability",
  "bill_no",
  "pan",
  "engine_no",
  "chasis_no",
  "registration_no",
  "payment_mode",
  "preregistration_id",
  "registration_id",
  "referrer",
  "referred_by",
  "q",
  "search",
  "password",
  "password_confirmation",
  "current_password",
  "remember_me",
  "lang",
  "redirectTo",
  "intent",
  "form_token",
  "state",
  "district",
  "city",
  "g-recaptcha-response",
  "website",
  "title",
  "url",
  "status",
  "prize",
  "pre_prize",
  "post_prize",
  "start",
  "length",
  "draw",
  "order",
  "dir",
  "__proto__",
  "constructor",
];

const nastyString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constantFrom("x".repeat(70_000), "९".repeat(20_000)) },
);

const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { weight: 6, arbitrary: nastyString },
    { weight: 2, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.array(tie("v"), { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), tie("v"), { maxKeys: 3 }) },
  ),
})).v;

const fields = fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 10 });

type Payload =
  | { kind: "none" }
  | { kind: "text"; body: string }
  | { kind: "broken-json"; body: string }
  | { kind: "json"; body: unknown }
  | { kind: "urlencoded"; fields: Record<string, unknown> }
  | { kind: "bad-percent"; body: string }
  | { kind: "multipart"; fields: Record<string, unknown>; file: boolean }
  | { kind: "truncated-multipart" }
  | { kind: "huge"; bytes: number };

const payload: fc.Arbitrary<Payload> = fc.oneof(
  fc.constant({ kind: "none" } as const),
  nastyString.map((body) => ({ kind: "text", body }) as const),
  fc
    .constantFrom('{"a":', "{", "[1,", '{"code": "12', "\u0000{}")
    .map((body) => ({ kind: "broken-json", body }) as const),
  fc.oneof(fields, value).map((body) => ({ kind: "json", body }) as const),
  fields.map((f) => ({ kind: "urlencoded", fields: f }) as const),
  fc
    .constantFrom("a=%zz&b=%", "%%%", "code=%E0%A4", "name=%00&phone=%FF%FE")
    .map((body) => ({ kind: "bad-percent", body }) as const),
  fc.tuple(fields, fc.boolean()).map(([f, file]) => ({ kind: "multipart", fields: f, file }) as const),
  fc.constant({ kind: "truncated-multipart" } as const),
  fc.constantFrom(2 * 1024 * 1024, 13 * 1024 * 1024).map((bytes) => ({ kind: "huge", bytes }) as const),
);

function formText(v: unknown): string {
  return typeof v === "string" ? v : (JSON.stringify(v) ?? "");
}

function build(p: Payload): { body: BodyInit | null; type: string | null } {
  switch (p.kind) {
    case "none":
      return { body: null, type: null };
    case "text":
      return { body: p.body, type: "text/plain" };
    case "broken-json":
      return { body: p.body, type: "application/json" };
    case "json":
      return { body: JSON.stringify(p.body) ?? "null", type: "application/json" };
    case "urlencoded": {
      const u = new URLSearchParams();
      for (const [k, v] of Object.entries(p.fields)) u.append(k, formText(v));
      return { body: u.toString(), type: "application/x-www-form-urlencoded" };
    }
    case "bad-percent":
      return { body: p.body, type: "application/x-www-form-urlencoded" };
    case "multipart": {
      const fd = new FormData();
      for (const [k, v] of Object.entries(p.fields)) fd.append(k, formText(v));
      if (p.file) fd.append("screenshot", new Blob([new Uint8Array([0x25, 0x50, 0x44, 0x46, 1, 2, 3])]), "proof.jpg");
      return { body: fd, type: null };
    }
    case "truncated-multipart":
      return {
        body: '--XX\r\nContent-Disposition: form-data; name="name"\r\n\r\nRam',
        type: "multipart/form-data; boundary=XX",
      };
    case "huge":
      return { body: `{"name":"${"x".repeat(p.bytes)}"}`, type: "application/json" };
  }
}

const query = fc.dictionary(fc.constantFrom(...FIELDS), nastyString, { maxKeys: 4 });

// ------------------------------------------------------------------ near-valid bodies

/** The records the near-valid bodies name (set in beforeAll). */
const ctx = { branchId: 0, modelId: 0, staffRoleId: 0, verified: [] as string[], edits: {} as Record<string, string> };

/**
 * A valid body for each call that creates or edits a record, so generated requests also get past
 * the schemas and store rows: one or two of its fields are then replaced by generated values
 * (nasty strings, wrong types). `n` keeps phones, titles and numbers apart.
 */
type Template = (n: number) => Record<string, unknown>;
const phoneOf = (n: number) => `98${String(n % 100_000_000).padStart(8, "0")}`;
const enquiry: Template = (n) => ({
  name: "Ram Bahadur",
  address: "Baneshwor Kathmandu",
  phone: phoneOf(n),
  citizenship_no: String(100_000 + n),
  nearest_branch_id: ctx.branchId,
  source: "RADIO",
  note: "Call after five",
});
const ride: Template = (n) => ({
  type: n % 2 ? "BOOKING" : "TESTRIDE",
  name: "Hari Thapa",
  state: "Bagmati",
  district: "Kathmandu",
  city: "Kathmandu",
  phone: phoneOf(n),
  email: `ride${n}@example.test`,
  bike_model_id: ctx.modelId,
  branch_id: ctx.branchId,
});
const purchase: Template = (n) => ({
  bill_no: `F${n}`,
  name: "Gopal Shrestha",
  address: "Patan",
  citizenship_no: `12-34-${n}`,
  email: `buyer${n}@example.test`,
  bike_model_id: ctx.modelId,
  engine_no: `EN${n}`,
  chasis_no: `CH${n}`,
  registration_no: `BA 1 PA ${n}`,
  payment_mode: PAYMENT_MODES[n % PAYMENT_MODES.length],
});
const branchBody: Template = (n) => ({
  title: `Fuzz Branch ${n}`,
  state: "Gandaki",
  district: "Kaski",
  city: "Pokhara",
  location: "Lakeside",
  email: `branch${n}@example.test`,
  phone: "061-111111/9856000000",
  mobile: "9856000000",
  one_lakh_allocation_count: n % 10,
  ten_lakhs_allocation_count: n % 3,
});
const videoBody: Template = (n) => ({
  title: `Winner ${n}`,
  url: `https://example.com/v/${n}`,
  amount: [50_000, 100_000, 1_000_000][n % 3],
  citizenship_no: `12-${n}`,
  phone: phoneOf(n),
});
const userBody: Template = (n) => ({
  first_name: "Fuzz",
  last_name: `User ${n}`,
  email: `fuzz${n}@example.test`,
  phone: phoneOf(n),
  sex: SEXES[n % SEXES.length],
  address: "Kathmandu",
  role_id: ctx.staffRoleId,
  branch_id: ctx.branchId,
});
const PUBLIC_POOL = amountsForType("preregistration_public");

const TEMPLATES: Record<string, Template> = {
  "/api/v1/enquiry": enquiry,
  "/enquiry": (n) => ({ ...enquiry(n), intent: n % 2 ? "save" : "review" }),
  "/enquiry/continue": (n) => ({ intent: "send", phone: phoneOf(n) }),
  "/api/v1/enquiry/continue": (n) => ({ phone: phoneOf(n) }),
  "/api/v1/preregistration": (n) => ({ ...enquiry(n), branch_id: ctx.branchId }),
  "/api/v1/preregistration/:id": (n) => ({ name: "Sita Devi", address: "Lalitpur", note: `Edit ${n}` }),
  "/api/v1/registration": (n) => ({ ...purchase(n), preregistration_id: ctx.verified[n % ctx.verified.length] }),
  "/api/v1/registration/:slug": purchase,
  "/api/v1/test-ride": ride,
  "/book-a-ride": ride,
  "/api/v1/allocation": (n) => ({
    type: "preregistration_public",
    amount: PUBLIC_POOL[n % PUBLIC_POOL.length],
    date: kathmanduDate(),
    count: 1 + (n % 5),
    probability: n % 101,
  }),
  "/api/v1/allocation/:id": (n) => ({ count: 1 + (n % 5) }),
  "/api/v1/branch": branchBody,
  "/api/v1/branch/:slug": branchBody,
  "/api/v1/bike-model": (n) => ({ title: `Fuzz Model ${n}` }),
  "/api/v1/bike-model/:slug": (n) => ({ title: `Fuzz Model ${n}` }),
  "/api/v1/video": videoBody,
  "/api/v1/video/:slug": videoBody,
  "/api/v1/user": (n) => ({ ...userBody(n), password: "Correct-Horse-9", password_confirmation: "Correct-Horse-9" }),
  "/api/v1/user/:id": userBody,
};

/** Counts the near-valid bodies built: generated numbers repeat often, phones and titles must not. */
let serial = 0;

function nearValid(template: Template): fc.Arbitrary<Payload> {
  const keys = Object.keys(template(0));
  return fc
    .tuple(
      fc.nat({ max: 99_999_999 }),
      fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 2 }),
      fc.constantFrom("json", "urlencoded", "multipart"),
    )
    .map(([n, over, kind]): Payload => {
      const body = { ...template((++serial * 7919 + n) % 100_000_000), ...over };
      if (kind === "json") return { kind, body };
      return kind === "urlencoded" ? { kind, fields: body } : { kind, fields: body, file: false };
    });
}

// ------------------------------------------------------------------ callers and records

type Caller = { name: string; userId?: number; headers: Record<string, string> };
const callers: Caller[] = [{ name: "anonymous", headers: {} }];
const slugs: string[] = ["no-such-record", "1", "-1", "%00", "__proto__"];

/** Every row of the checked tables before the fuzzing, by table and id (JSON), to tell what it changed. */
const before = new Map<string, Map<number, string>>();

beforeAll(async () => {
  const branch = makeBranch();
  const model = makeBikeModel();
  Object.assign(ctx, { branchId: branch.id, modelId: model.id, staffRoleId: roleBySlug("branch-staff")!.id });
  for (const role of ["super-admin", "branch-manager", "branch-staff"] as const) {
    const user = await makeUser(role, role === "super-admin" ? null : branch.id);
    callers.push({
      name: role,
      userId: user.id,
      headers: { Authorization: `Bearer ${issueToken(user.id, false).token}` },
    });
  }
  const verified = {
    is_verified: true,
    status: "verified",
    prize: 5000,
    verified_at: new Date().toISOString(),
  } as const;
  for (let i = 0; i < 4; i++) {
    const entry = makePreregistration({ branch_id: i ? branch.id : null, ...(i > 0 ? verified : {}) });
    slugs.push(entry.slug);
    if (i > 0) ctx.verified.push(entry.slug);
  }
  // Records of each kind for the calls that edit, retire, close or delete one.
  const victim = makeBranch({ mobile: "9856000001" });
  const sold = makeRegistration(branch.id, { engine_no: "ENFUZZ1", chasis_no: "CHFUZZ1", registration_no: "RNFUZZ1" });
  db.update(schema.preregistrations)
    .set({ prize: 5000, verified_at: sold.created_at })
    .where(eq(schema.preregistrations.id, sold.preregistration_id))
    .run();
  const video = db
    .insert(schema.videos)
    .values({ slug: randomSlug(), title: "Winner", url: "https://example.com/v", amount: 50_000 })
    .returning()
    .get();
  const pool = makeAllocation({ type: "preregistration_public", amount: PUBLIC_POOL[0], date: kathmanduDate() });
  const edits = {
    "/api/v1/branch/:slug": victim.slug,
    "/api/v1/bike-model/:slug": makeBikeModel().slug,
    "/api/v1/registration/:slug": sold.slug,
    "/api/v1/video/:slug": video.slug,
    "/api/v1/allocation/:id": String(pool.id),
    "/api/v1/user/:id": (await makeUser("branch-staff", branch.id)).slug,
    "/api/v1/preregistration/:id": ctx.verified[0],
  };
  ctx.edits = edits;
  slugs.push(...Object.values(edits).filter((slug) => !slugs.includes(slug)));
  for (const [name, table] of Object.entries(CHECKED)) {
    before.set(
      name,
      new Map(
        db
          .select()
          .from(table)
          .all()
          .map((r) => [r.id, JSON.stringify(r)]),
      ),
    );
  }
});

let requests = 0;
const perCall = new Map<string, number>();
const fiveHundreds: string[] = [];

async function invoke(
  mod: RouteModule,
  path: string,
  method: string,
  p: Payload,
  q: Record<string, string>,
  caller: Caller,
  slug: string,
) {
  const fn = method === "GET" ? mod.loader : mod.action;
  if (!fn) return;
  const url = new URL(`http://localhost${path.replace(/:[a-z*]+/g, encodeURIComponent(slug))}`);
  for (const [k, v] of Object.entries(q)) url.searchParams.append(k, v);
  const headers: Record<string, string> = {
    ...caller.headers,
    // Logging out revokes the token it is sent with: a token of its own, so the caller keeps theirs.
    ...(caller.userId && /logout/.test(path)
      ? { Authorization: `Bearer ${issueToken(caller.userId, false).token}` }
      : {}),
    [ADDRESS_HEADER]: `10.77.${requests % 250}.${requests % 7}`,
  };
  const init: RequestInit & { duplex?: string } = { method, headers };
  if (method !== "GET") {
    const { body, type } = build(p);
    if (type) headers["Content-Type"] = type;
    init.body = body;
    init.duplex = "half";
  }
  requests++;
  perCall.set(path, (perCall.get(path) ?? 0) + 1);
  let status: number;
  try {
    const res = await fn({
      request: new Request(url, init),
      context: { clientAddress: headers[ADDRESS_HEADER] },
      params: { slug, id: slug, "*": slug },
    });
    status = res instanceof Response ? res.status : 200;
    if (res instanceof Response) await res.arrayBuffer().catch(() => undefined);
  } catch (e) {
    if (e instanceof Response) status = e.status;
    else {
      status = 500;
      fiveHundreds.push(
        `${caller.name} ${method} ${url.pathname}${url.search.slice(0, 60)} ${p.kind}: ${(e as Error)?.stack?.split("\n").slice(0, 3).join(" | ")}`,
      );
    }
  }
  if (status >= 500 && !fiveHundreds.length)
    fiveHundreds.push(`${caller.name} ${method} ${url.pathname} ${p.kind} → ${status}`);
  expect(status, `${caller.name} ${method} ${url} ${p.kind} (seed ${SEED})`).toBeLessThan(500);
}

function fuzz(label: string, modules: Record<string, RouteModule>) {
  describe(label, () => {
    for (const [file, mod] of Object.entries(modules)) {
      const path = pathOf(file);
      const methods = [mod.loader ? ["GET"] : [], mod.action ? ["POST", "PATCH", "DELETE"] : []].flat();
      if (!methods.length) continue;
      // Each login try costs a password hash: fewer runs there.
      const runs = /login|reset-password/.test(path) ? Math.max(4, Math.floor(RUNS / 4)) : RUNS;
      const template = TEMPLATES[path];
      it(`${path}: no 5xx`, { timeout: 120_000 }, async () => {
        for (const caller of callers) {
          // A call that stores or edits a record first gets near-valid bodies (on the record it edits).
          if (template && mod.action) {
            await fc.assert(
              fc.asyncProperty(nearValid(template), async (p) =>
                invoke(mod, path, "POST", p, {}, caller, ctx.edits[path] ?? slugs[0]),
              ),
              { seed: SEED, numRuns: runs, endOnFailure: true },
            );
          }
          await fc.assert(
            fc.asyncProperty(
              fc.constantFrom(...methods),
              payload,
              query,
              fc.constantFrom(...slugs),
              async (method, p, q, slug) => invoke(mod, path, method, p, q, caller, slug),
            ),
            { seed: SEED, numRuns: runs, endOnFailure: true },
          );
        }
      });
    }
  });
}

fuzz("every /api/v1 call", apiModules);
fuzz("every public form", publicForms);

describe("the public forms fuzzed", () => {
  it("are every route outside the back office and the API that takes a post (exports an action)", () => {
    const dir = path.resolve("app/routes");
    const takesPosts = (file: string) =>
      /export\s+(?:async\s+)?function\s+action\b|export\s+const\s+action\b|export\s*\{[^}]*\baction\b/.test(
        fs.readFileSync(path.join(dir, file), "utf8"),
      );
    const expected = fs
      .readdirSync(dir)
      .filter((f) => /\.tsx?$/.test(f) && !/^(?:admin|api)\./.test(f) && !/\.test\./.test(f))
      .filter(takesPosts)
      .map((f) => `/app/routes/${f}`)
      .sort();
    expect(Object.keys(publicForms).sort()).toEqual(expected);
    expect(expected).toEqual(
      expect.arrayContaining(["/app/routes/enquiry.continue.tsx", "/app/routes/enquiry._index.tsx"]),
    );
  });
});

// ------------------------------------------------------------------ what was stored

/** The tables the fuzzed calls can write, checked after the fuzzing. */
const CHECKED = {
  preregistrations: schema.preregistrations,
  registrations: schema.registrations,
  test_rides: schema.testRides,
  allocations: schema.allocations,
  users: schema.users,
  branches: schema.branches,
  bike_models: schema.bikeModels,
  videos: schema.videos,
} as const;

/** Rows stored (new) and changed by the fuzzing, by table. */
const stored = new Map<string, { added: number; changed: number }>();

const PHONE = /^9\d{9}$/;
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/; // eslint-disable-line no-control-regex
const blank = (v: unknown) => (v === undefined || v === "" ? null : v);

/**
 * A row the fuzzing stored or changed, sent back as its form or API body, passes the call's own
 * schema, and the schema gives the stored values back unchanged (nothing was stored that the
 * schema would not have made of it).
 */
function conforms(label: string, check: z.ZodType, row: Record<string, unknown>, fields: string[], same = fields) {
  const body = Object.fromEntries(fields.map((f) => [f, row[f]]).filter(([, v]) => v !== null));
  const parsed = check.safeParse(body);
  expect(parsed.success, `${label}: ${JSON.stringify(parsed.error?.issues ?? [])}`).toBe(true);
  const out = parsed.data as Record<string, unknown>;
  for (const f of same) expect(blank(out[f]), `${label} ${f}`).toEqual(blank(row[f]));
}

/** Every row of a table, and those the fuzzing stored or changed (counted for the report). */
function rowsOf<K extends keyof typeof CHECKED>(name: K) {
  const all = db.select().from(CHECKED[name]).all() as (typeof CHECKED)[K]["$inferSelect"][];
  const was = before.get(name)!;
  const touched = all.filter((r) => was.get(r.id) !== JSON.stringify(r));
  const added = touched.filter((r) => !was.has(r.id)).length;
  stored.set(name, { added, changed: touched.length - added });
  for (const r of all) {
    for (const [k, v] of Object.entries(r)) {
      if (typeof v === "string") expect(CONTROL.test(v), `${name} ${r.id} ${k}: a control character`).toBe(false);
    }
  }
  return { all, touched };
}

describe("what was stored", () => {
  it("every row the fuzzing stored or changed passes its schema, and every row its invariants", () => {
    const ids = (rows: { id: number }[]) => new Set(rows.map((r) => r.id));
    const branchIds = ids(db.select({ id: schema.branches.id }).from(schema.branches).all());
    const modelIds = ids(db.select({ id: schema.bikeModels.id }).from(schema.bikeModels).all());
    const roleIds = ids(db.select({ id: schema.roles.id }).from(schema.roles).all());

    const pre = rowsOf("preregistrations");
    for (const r of pre.touched) {
      conforms(
        `preregistration ${r.slug}`,
        preregistrationSchema,
        r,
        ["name", "address", "email", "phone", "citizenship_no", "shared", "bike_model_id", "source", "note"],
        ["name", "address", "email", "phone", "citizenship_no", "source", "note"],
      );
    }
    const purchasedIds = new Set(
      db
        .select({ id: schema.registrations.preregistration_id })
        .from(schema.registrations)
        .all()
        .map((r) => r.id),
    );
    for (const r of pre.all) {
      expect(r.phone, r.slug).toMatch(PHONE);
      expect(r.name.trim().length, r.slug).toBeGreaterThan(0);
      if (r.source) expect(SOURCE_OPTIONS as readonly string[]).toContain(r.source);
      // The status follows the flags; a verified entry has its draw, an unverified one none.
      expect(r.status, r.slug).toBe(r.purchased ? "purchased" : r.is_verified ? "verified" : "unverified");
      expect(r.verified_at !== null, r.slug).toBe(r.is_verified);
      expect(r.prize !== null, r.slug).toBe(r.is_verified);
      expect(r.purchased, r.slug).toBe(purchasedIds.has(r.id));
      for (const b of [r.branch_id, r.nearest_branch_id]) if (b !== null) expect(branchIds.has(b)).toBe(true);
    }

    const reg = rowsOf("registrations");
    for (const r of reg.touched) {
      conforms(
        `registration ${r.slug}`,
        registrationUpdateSchema,
        r,
        [
          "bill_no",
          "name",
          "address",
          "citizenship_no",
          "pan",
          "email",
          "bike_model_id",
          "engine_no",
          "chasis_no",
          "registration_no",
          "payment_mode",
          "note",
          "send_sms",
          "registration_id",
          "referred_by",
        ],
        ["name", "address", "citizenship_no", "pan", "email", "engine_no", "chasis_no", "registration_no", "note"],
      );
    }
    const verifiedIds = new Set(pre.all.filter((p) => p.is_verified && p.purchased).map((p) => p.id));
    for (const r of reg.all) {
      for (const n of [r.engine_no, r.chasis_no, r.registration_no]) expect(n).toMatch(/^[A-Z0-9\-._]+$/);
      expect(r.bill_no.startsWith(`B${r.branch_id}-`)).toBe(true);
      expect(PAYMENT_MODES as readonly string[]).toContain(r.payment_mode);
      // Made (pending), confirmed with the customer's code, then drawn: each step keeps its mark.
      expect(r.confirmed_at === null, r.slug).toBe(r.status === "pending");
      expect(r.coupon_amount !== null, r.slug).toBe(r.status === "drawn");
      expect(verifiedIds.has(r.preregistration_id), r.slug).toBe(true);
      expect(branchIds.has(r.branch_id) && modelIds.has(r.bike_model_id)).toBe(true);
    }

    const rides = rowsOf("test_rides");
    for (const r of rides.touched) {
      conforms(
        `test ride ${r.slug}`,
        testRideSchema,
        r,
        ["type", "name", "state", "district", "city", "email", "phone", "bike_model_id", "branch_id", "utm_source"],
        ["type", "name", "state", "district", "city", "email", "phone"],
      );
    }
    for (const r of rides.all) {
      expect(r.phone).toMatch(PHONE);
      expect(["TESTRIDE", "BOOKING"]).toContain(r.type);
      expect([r.first_name, r.last_name].filter(Boolean).join(" "), r.slug).toBe(r.name);
      expect(branchIds.has(r.branch_id) && modelIds.has(r.bike_model_id)).toBe(true);
    }

    const pools = rowsOf("allocations");
    for (const r of pools.touched) {
      const fields = ["type", "branch_id", "date", "amount", "count", "probability"];
      conforms(`allocation ${r.id}`, allocationSchema, r, fields);
    }
    for (const r of pools.all) {
      expect(r.count).toBeGreaterThanOrEqual(1);
      expect(r.count).toBeLessThanOrEqual(5);
      expect(r.paid).toBeGreaterThanOrEqual(0);
      expect(r.paid, `allocation ${r.id}`).toBeLessThanOrEqual(r.count);
    }

    const people = rowsOf("users");
    for (const r of people.touched) {
      conforms(
        `user ${r.slug}`,
        userUpdateSchema,
        r,
        ["branch_id", "first_name", "last_name", "email", "phone", "sex", "address", "role_id"],
        ["first_name", "last_name", "email", "phone", "sex", "address"],
      );
    }
    for (const r of people.all) {
      expect(r.name, r.slug).toBe(`${r.first_name} ${r.last_name}`.trim());
      expect(r.email, r.slug).toBe(r.email.trim().toLowerCase());
      expect(r.password_hash.startsWith("scrypt$"), r.slug).toBe(true);
      expect(roleIds.has(r.role_id)).toBe(true);
      if (r.branch_id !== null) expect(branchIds.has(r.branch_id)).toBe(true);
    }

    const shops = rowsOf("branches");
    for (const r of shops.touched) conforms(`branch ${r.slug}`, branchSchema, r, [...BRANCH_FIELDS]);
    for (const r of shops.all) expect(r.title.trim(), r.slug).toBe(r.title);

    const models = rowsOf("bike_models");
    for (const r of models.touched) {
      conforms(`bike model ${r.slug}`, bikeModelSchema, { ...r, thumbnail: r.thumbnail_id }, ["title", "thumbnail"]);
    }
    for (const r of models.all) expect(r.title.trim().length, r.slug).toBeGreaterThan(0);

    const videos = rowsOf("videos");
    for (const r of videos.touched) {
      conforms(
        `video ${r.slug}`,
        videoSchema,
        { ...r, thumbnail: r.thumbnail_id },
        ["title", "url", "amount", "citizenship_no", "phone", "thumbnail"],
        ["title", "url", "amount", "citizenship_no", "phone"],
      );
    }
  });
});

afterAll(() => {
  const lines = [...perCall].map(([p, n]) => `${p} ${n}`).join("\n");
  const rows = [...stored].map(([t, n]) => `${t} +${n.added} ~${n.changed}`).join(", ");
  console.info(
    `fuzz seed ${SEED}: ${requests} requests, ${fiveHundreds.length} 5xx\n${lines}\nrows stored (+new ~changed): ${rows}`,
  );
  if (fiveHundreds.length) console.error(fiveHundreds.slice(0, 20).join("\n"));
});
