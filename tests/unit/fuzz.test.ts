// Property-based fuzzing of every /api/v1 call and every public form: generated payloads (wrong types,
// missing and extra fields, huge, unicode, NUL, RTL, formula-, SQL- and HTML-like strings, wrong and
// missing content types, broken JSON, truncated multipart, bad percent-encoding), as anonymous and as
// each seeded role. No answer may be a 5xx, and every row stored afterwards must pass its rules.
// Seeded: FUZZ_SEED replays a run; FUZZ_RUNS sets the requests per call and caller.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { SOURCE_OPTIONS } from "~/schemas/preregistration";
import { issueToken } from "~/utils/api.server";
import { ADDRESS_HEADER } from "~/utils/auth.server";
import { makeBikeModel, makeBranch, makePreregistration, makeUser } from "../fixtures";

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 24);

type Args = { request: Request; context: { clientAddress: string }; params: Record<string, string> };
type RouteModule = { loader?: (a: Args) => Promise<unknown>; action?: (a: Args) => Promise<unknown> };

const apiModules = import.meta.glob<RouteModule>("/app/routes/api.v1.*.ts", { eager: true });
const publicForms = import.meta.glob<RouteModule>(
  [
    "/app/routes/enquiry._index.tsx",
    "/app/routes/enquiry.$slug.verify.tsx",
    "/app/routes/book-a-ride.tsx",
    "/app/routes/login.tsx",
    "/app/routes/reset-password.tsx",
    "/app/routes/language.tsx",
  ],
  { eager: true },
);

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

// ------------------------------------------------------------------ callers and records

type Caller = { name: string; headers: Record<string, string> };
const callers: Caller[] = [{ name: "anonymous", headers: {} }];
const slugs: string[] = ["no-such-record", "1", "-1", "%00", "__proto__"];

beforeAll(async () => {
  const branch = makeBranch();
  makeBikeModel();
  for (const role of ["super-admin", "branch-manager", "branch-staff"] as const) {
    const user = await makeUser(role, role === "super-admin" ? null : branch.id);
    callers.push({ name: role, headers: { Authorization: `Bearer ${issueToken(user.id, false).token}` } });
  }
  for (let i = 0; i < 3; i++)
    slugs.push(makePreregistration({ branch_id: i ? branch.id : null, is_verified: i > 0 }).slug);
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
      it(`${path}: no 5xx`, { timeout: 120_000 }, async () => {
        for (const caller of callers) {
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

describe("what was stored", () => {
  it("every row stored by the fuzzing passes its rules", () => {
    const phone = /^9\d{9}$/;
    const control = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/; // eslint-disable-line no-control-regex
    for (const r of db.select().from(schema.preregistrations).all()) {
      expect(r.phone, r.slug).toMatch(phone);
      expect(r.name.trim().length, r.slug).toBeGreaterThan(0);
      expect(control.test(`${r.name}${r.address}${r.note ?? ""}`), r.slug).toBe(false);
      if (r.source) expect(SOURCE_OPTIONS as readonly string[]).toContain(r.source);
    }
    for (const r of db.select().from(schema.testRides).all()) {
      expect(r.phone).toMatch(phone);
      expect(["TESTRIDE", "BOOKING"]).toContain(r.type);
      expect(control.test(r.name)).toBe(false);
    }
    for (const r of db.select().from(schema.registrations).all()) {
      for (const n of [r.engine_no, r.chasis_no, r.registration_no]) expect(n).toMatch(/^[A-Z0-9\-._]+$/);
      expect(r.bill_no.startsWith(`B${r.branch_id}-`)).toBe(true);
    }
    for (const r of db.select().from(schema.allocations).all()) {
      expect(r.count).toBeGreaterThanOrEqual(1);
      expect(r.count).toBeLessThanOrEqual(5);
    }
  });
});

afterAll(() => {
  const lines = [...perCall].map(([p, n]) => `${p} ${n}`).join("\n");
  console.info(`fuzz seed ${SEED}: ${requests} requests, ${fiveHundreds.length} 5xx\n${lines}`);
  if (fiveHundreds.length) console.error(fiveHundreds.slice(0, 20).join("\n"));
});
