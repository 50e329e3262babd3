// What the built server refuses before any route runs, and the redirects it will follow: over HTTP,
// once (the browser plays no part), against the real server.
import { expect, test, type APIRequestContext } from "@playwright/test";
import crypto from "node:crypto";
import http from "node:http";
import { Readable } from "node:stream";
import { PASSWORD, readDb, USERS } from "./helpers";

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "HTTP only: one run is enough");

async function signedIn(
  playwright: { request: { newContext: (o: object) => Promise<APIRequestContext> } },
  baseURL: string,
  email: string,
) {
  const ctx = await playwright.request.newContext({ baseURL, maxRedirects: 0 });
  const res = await ctx.post("/login", {
    form: { email, password: PASSWORD, redirectTo: "/admin" },
    headers: { Origin: baseURL },
  });
  expect(res.status()).toBe(302);
  return ctx;
}

test("redirect targets stay on this site, and odd ones answer a clean redirect", async ({ request, baseURL }) => {
  const site = new URL(baseURL!).host;
  const targets = [
    "/%09/evil.example",
    "/%0A/evil.example",
    "//evil.example",
    "/\\evil.example",
    "https://evil.example/",
    "/%5Cevil.example",
    "/./%2F/evil.example",
    "/योजना",
    "/winner-list%0D%0ASet-Cookie:%20x=1",
  ];
  for (const t of targets) {
    const res = await request.get(`/language?lang=ne&redirectTo=${t}`, { maxRedirects: 0 });
    expect(res.status(), t).toBe(302);
    const location = res.headers().location;
    expect(new URL(location, baseURL).host, `${t} → ${location}`).toBe(site);
    expect(location.startsWith("//"), location).toBe(false);
    expect(res.headers()["set-cookie"] ?? "", t).not.toContain("x=1");
  }
  // The login page's redirectTo follows the same rule.
  const ctx = await request.post("/login", {
    form: { email: USERS.staff, password: PASSWORD, redirectTo: "/\t/evil.example" },
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(ctx.status()).toBe(302);
  expect(new URL(ctx.headers().location, baseURL).host).toBe(site);
});

test("a cross-site form post is refused with the 403 page, with or without ?_data= or .data, and nothing is saved", async ({
  playwright,
  baseURL,
}) => {
  const admin = await signedIn(playwright, baseURL!, USERS.admin);
  // A day no other test uses (other workers create schemes meanwhile): only this test's schemes are counted.
  const day = new Date(Date.UTC(2030 + crypto.randomInt(0, 10), 0, 1 + crypto.randomInt(0, 365)))
    .toISOString()
    .slice(0, 10);
  const count = () =>
    readDb((db) => (db.prepare("select count(*) n from allocations where date = ?").get(day) as { n: number }).n);
  const before = count();
  const form = { type: "preregistration_public", date: day, amount: "4000", count: "1", probability: "5" };
  // Signed in by cookie: a post that names no origin (no Sec-Fetch-Site, no Origin) needs a Referer of this site.
  const refused: Record<string, string>[] = [
    { Origin: "https://evil.example" },
    { "Sec-Fetch-Site": "cross-site" },
    {},
    { Referer: "https://evil.example/admin/scheme/create" },
  ];
  for (const path of [
    "/admin/scheme/create",
    "/admin/scheme/create?_data=routes%2Fadmin.scheme.create",
    "/admin/scheme/create?index&_data=routes%2Fadmin.scheme.create",
    "/admin/scheme/create.data",
    "/admin/scheme/create.data?_data=routes%2Fadmin.scheme.create",
  ]) {
    for (const headers of refused) {
      const res = await admin.post(path, { form, headers });
      expect(res.status(), `${path} ${JSON.stringify(headers)}`).toBe(403);
      if (!path.includes(".data")) expect(await res.text()).toContain("sent from another site");
    }
  }
  // The API's refusal is JSON, whatever the query.
  for (const path of ["/api/v1/allocation", "/api/v1/allocation?_data=routes%2Fapi.v1.allocation"]) {
    const res = await admin.post(path, { data: form, headers: { Origin: "https://evil.example" } });
    expect(res.status(), path).toBe(403);
    expect(await res.json(), path).toEqual({ message: "Cross-site requests are not accepted." });
  }
  expect(count()).toBe(before);
  // From this site a legacy data request is still turned away before any route (400), and saves nothing.
  const legacy = await admin.post("/admin/scheme/create?_data=routes%2Fadmin.scheme.create", {
    form,
    headers: { Origin: baseURL! },
  });
  expect(legacy.status()).toBe(400);
  expect(count()).toBe(before);
  // The same post from this site is saved.
  const ok = await admin.post("/admin/scheme/create", { form, headers: { Origin: baseURL! } });
  expect(ok.status()).toBe(302);
  expect(count()).toBe(before + 1);
  // A browser that sends neither Origin nor Sec-Fetch-Site, with this site's page as its Referer, is heard.
  const vouched = await admin.post("/admin/scheme/create", {
    form,
    headers: { Referer: `${baseURL}/admin/scheme/create` },
  });
  expect(vouched.status()).toBe(302);
  expect(count()).toBe(before + 2);
});

test("back-office pages and personal-data API answers are not stored; public pages keep their caching", async ({
  playwright,
  baseURL,
}) => {
  const admin = await signedIn(playwright, baseURL!, USERS.admin);
  for (const path of ["/admin", "/admin/registration", "/admin/preregistration"]) {
    expect((await admin.get(path)).headers()["cache-control"], path).toContain("no-store");
  }
  const token = (
    await (await admin.post("/api/v1/auth/login", { data: { email: USERS.admin, password: PASSWORD } })).json()
  ).access_token as string;
  for (const path of ["/api/v1/registration", "/api/v1/preregistration", "/api/v1/auth/me"]) {
    const res = path.endsWith("/me")
      ? await admin.post(path, { headers: { Authorization: `Bearer ${token}` } })
      : await admin.get(path, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.headers()["cache-control"], path).toContain("no-store");
  }
  const landing = await admin.get("/");
  expect(landing.headers()["cache-control"] ?? "").not.toContain("no-store");
});

/**
 * A raw HTTP POST that reads the answer as soon as it comes, and tells whether sending the body failed
 * (the server closing on the client while it was still sending).
 */
function rawPost(
  baseURL: string,
  path: string,
  headers: Record<string, string>,
  body: Readable,
): Promise<{ status: number; text: string; sendError: string | null }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    let sendError: string | null = null;
    const req = http.request(new URL(path, baseURL), { method: "POST", headers }, (res) => {
      answered = true;
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text, sendError }));
    });
    req.on("error", (e) => {
      sendError = String(e);
      if (!answered) reject(e);
    });
    body.pipe(req);
  });
}

function megabytes(n: number): Readable {
  let left = n;
  const chunk = Buffer.alloc(1024 * 1024, 0x78);
  return new Readable({
    read() {
      this.push(left-- > 0 ? chunk : null);
    },
  });
}

test("a 20 MB JSON body is refused with 413, declared or streamed, and the server goes on answering", async ({
  baseURL,
  request,
}) => {
  const declared = await rawPost(
    baseURL!,
    "/api/v1/auth/login",
    { "Content-Type": "application/json", "Content-Length": String(20 * 1024 * 1024) },
    megabytes(20),
  );
  expect(declared.status).toBe(413);
  // The server read the whole body (it declared no more than DRAIN_BYTES): nothing cut the sending short.
  expect(declared.sendError).toBeNull();
  // Refused before any route by the largest limit, in the body reader's own shape (nginx answers the same).
  expect(JSON.parse(declared.text)).toEqual({
    message: "The request body may not be larger than 12 MB.",
    errors: { form: ["The request body may not be larger than 12 MB."] },
  });
  const chunked = await rawPost(
    baseURL!,
    "/api/v1/auth/login",
    { "Content-Type": "application/json", "Transfer-Encoding": "chunked" },
    megabytes(20),
  );
  expect(chunked.status).toBe(413);
  // Answered after 4 MB past the limit, then closed: the server read on while it closed, so the client
  // finished sending and read its answer (a reset could come before the answer was read).
  expect(chunked.sendError).toBeNull();
  expect(JSON.parse(chunked.text).message).toMatch(/may not be larger than 64 KB/);
  expect((await request.get("/login")).status()).toBe(200);
});

test("uploaded files are addressed by an unguessable key, never by their number", async ({ request }) => {
  const file = readDb((db) => db.prepare("select id, key from files order by id limit 1").get()) as
    { id: number; key: string } | undefined;
  expect(file, "the demo data holds uploaded files (the bike models' pictures)").toBeTruthy();
  expect((await request.get(`/files/${file!.id}`)).status()).toBe(404);
  expect(file!.key).toMatch(/^[A-Za-z0-9_-]{24}$/);
});
