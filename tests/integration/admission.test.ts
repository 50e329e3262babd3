/**
 * One server process (node server.js) driven past its bound (ADMISSION_IN_FLIGHT=2, held by two uploads whose
 * bodies do not come; ADMISSION_LOOP_BUSY=0, so the bound alone decides): a new landing gets the busy page at
 * once (503, Retry-After, in its language; JSON on /api/) and runs no SQLite statement (counted by
 * tests/statement-probe.mjs), while a visitor in a journey, staff by session and by token are served. Forged and
 * ended cookies and tokens count for nothing. Draws waiting for their beacon round (a local beacon that serves each
 * round seconds late) do not count against the bound: with more of them in flight than the bound, a new landing is
 * served. Behind nginx: tests/e2e/busy-nginx.spec.ts.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@db/index";
import { issueCodeIn } from "~/models/otp.server";
import { startLocalBeacon } from "../../scripts/local-beacon.mjs";
import { makePreregistration, makeUser } from "../fixtures";
import { TEST_BEACON } from "../setup/global-setup";
import { startServer, type ServerProcess } from "./server-process";

const dir = path.join(process.env.TEST_TMP_DIR!, `admission-${crypto.randomBytes(4).toString("hex")}`);
const SECRET = "admission-secret";
/** How late the beacon serves each round: a draw waits about this long for it. */
const BEACON_LAG_MS = 8000;
let server: ServerProcess;
let beacon: Awaited<ReturnType<typeof startLocalBeacon>>;

beforeAll(async () => {
  fs.mkdirSync(dir, { recursive: true });
  // The tests' chain (the day's committed terms name it), each round served BEACON_LAG_MS after its time.
  beacon = await startLocalBeacon({ ...TEST_BEACON, now: () => Date.now() - BEACON_LAG_MS });
  server = await startServer(
    dir,
    {
      ...beacon.settings,
      DATABASE_URL: process.env.DATABASE_URL!,
      SESSION_SECRET: SECRET,
      ADMISSION_IN_FLIGHT: "2",
      ADMISSION_LOOP_BUSY: "0",
    },
    { probeStatements: true },
  );
}, 180_000);

afterAll(async () => {
  server?.kill();
  await beacon?.close();
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

let probes = 0;
/** A request with its own probe id (tests/statement-probe.mjs counts the statements run answering it). */
function send(
  method: string,
  pathname: string,
  { headers = {}, body }: { headers?: Record<string, string>; body?: string } = {},
): Promise<Answer & { probe: string }> {
  const probe = `probe-${++probes}`;
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${server.url}${pathname}`,
      {
        method,
        agent: false,
        headers: {
          "X-Statement-Probe": probe,
          ...(body ? { "Content-Length": String(Buffer.byteLength(body)) } : {}),
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, probe }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const json = (value: unknown) => ({
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(value),
});

/** A POST whose body never comes: the server has taken it (100 Continue) and holds it in flight. */
function held(pathname: string) {
  const req = http.request(`${server.url}${pathname}`, {
    method: "POST",
    agent: false,
    headers: { "Content-Type": "application/json", "Content-Length": "100", Expect: "100-continue" },
  });
  req.on("error", () => undefined); // destroyed at the end
  req.on("response", (res) => res.resume());
  const accepted = new Promise<void>((resolve) => req.on("continue", () => resolve()));
  req.flushHeaders();
  return { accepted, release: () => req.destroy() };
}

/** The site's journey cookie (plain http: "journey") as the server signs it, ending at `until`. */
const journeyCookie = async (until: number, secret = SECRET) =>
  (await createCookie("journey", { secrets: [secret] }).serialize({ until })).split(";")[0];

const cookieOf = (answer: Answer, name: string) =>
  ([] as string[])
    .concat(answer.headers["set-cookie"] ?? [])
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith(`${name}=`));

describe("a process past its bound", () => {
  it("refuses a new landing at once with the busy page in its language, reading nothing; journeys and staff go on", async () => {
    const user = await makeUser("super-admin", null);
    // Staff: a back-office session and an API token.
    const signIn = await send("POST", "/login", {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: user.email, password: user.password, redirectTo: "/admin" }).toString(),
    });
    const session = cookieOf(signIn, "__session");
    expect(session).toBeTruthy();
    const apiLogin = await send("POST", "/api/v1/auth/login", json({ email: user.email, password: user.password }));
    const token = JSON.parse(apiLogin.body).access_token as string;
    // A visitor in a journey: a "continue" code asked for sets the journey cookie.
    const phone = "9841000001";
    const asked = await send("POST", "/api/v1/enquiry/continue", json({ phone }));
    expect(asked.status).toBe(200);
    const journey = cookieOf(asked, "journey");
    expect(journey).toBeTruthy();

    const holds = [held("/api/v1/enquiry"), held("/api/v1/enquiry")];
    await Promise.all(holds.map((h) => h.accepted));
    try {
      // The newest landing, in Nepali by Accept-Language.
      const landing = await send("GET", "/", { headers: { "Accept-Language": "ne-NP,ne;q=0.9,en;q=0.8" } });
      expect(landing.status).toBe(503);
      expect(landing.headers["retry-after"]).toBe("60");
      expect(landing.headers["content-type"]).toMatch(/^text\/html/);
      expect(landing.headers["content-language"]).toBe("ne");
      expect(landing.body).toContain("तपाईंको अवसर गुमेको छैन: एक मिनेटपछि फेरि प्रयास गर्नुहोस्।");
      expect(await server.statements(landing.probe)).toBe(0);
      // The language cookie goes before Accept-Language; English otherwise.
      const byCookie = await send("GET", "/enquiry", { headers: { Cookie: "lang=ne", "Accept-Language": "en" } });
      expect([byCookie.status, byCookie.headers["content-language"]]).toEqual([503, "ne"]);
      const english = await send("GET", "/", { headers: { "Accept-Language": "en-GB,ne;q=0.5" } });
      expect([english.status, english.headers["content-language"]]).toEqual([503, "en"]);
      expect(english.body).toContain("Many people are entering right now.");
      expect(english.body).toContain("Your place is not lost: try again in a minute.");
      // A new form, and the API in JSON.
      const form = await send("POST", "/api/v1/enquiry", json({ name: "New" }));
      expect(form.status).toBe(503);
      expect(form.headers["retry-after"]).toBe("60");
      expect(JSON.parse(form.body)).toEqual({
        message: "Many people are entering right now. Your place is not lost: try again in a minute.",
      });
      expect(await server.statements(form.probe)).toBe(0);

      // Counting for nothing: a forged session, a made-up token, a journey cookie signed elsewhere or ended,
      // and a journey cookie away from the pre-registration.
      const refused = await Promise.all([
        send("GET", "/admin", { headers: { Cookie: `__session=${session!.split("=")[1].slice(0, -4)}AAAA` } }),
        send("GET", "/api/v1/user", { headers: { Authorization: `Bearer ${token.slice(0, -4)}AAAA` } }),
        send("GET", "/api/v1/user", { headers: { Authorization: `Bearer ${token.split(".")[0]}` } }),
        send("POST", "/api/v1/enquiry/continue/verify", {
          ...json({ phone, code: "000000" }),
          headers: { "Content-Type": "application/json", Cookie: await journeyCookie(Date.now() + 60_000, "other") },
        }),
        send("POST", "/api/v1/enquiry/continue/verify", {
          ...json({ phone, code: "000000" }),
          headers: { "Content-Type": "application/json", Cookie: await journeyCookie(Date.now() - 1000) },
        }),
        send("GET", "/", { headers: { Cookie: journey! } }),
      ]);
      expect(refused.map((r) => r.status)).toEqual([503, 503, 503, 503, 503, 503]);
      for (const r of refused) expect(await server.statements(r.probe)).toBe(0);

      // Served: the visitor's code check, staff by session and by token.
      const check = await send("POST", "/api/v1/enquiry/continue/verify", {
        ...json({ phone, code: "000000" }),
        headers: { "Content-Type": "application/json", Cookie: journey! },
      });
      expect(check.status).toBe(422);
      expect(JSON.parse(check.body).errors.code).toEqual(["Invalid OTP"]);
      // The probe sees the statements of a request that reads the database.
      expect(await server.statements(check.probe)).toBeGreaterThan(0);
      const page = await send("GET", "/admin", { headers: { Cookie: session! } });
      expect(page.status).toBe(200);
      const api = await send("GET", "/api/v1/user", { headers: { Authorization: `Bearer ${token}` } });
      expect(api.status).toBe(200);
    } finally {
      for (const h of holds) h.release();
    }
    // Under the bound again: the landing is served.
    await expect.poll(async () => (await send("GET", "/")).status, { timeout: 10_000 }).toBe(200);
  }, 60_000);
});

describe("a burst while the process cannot take connections", () => {
  it("waits in its accept queue, past Node's 511: no connection is dropped to come back seconds later", async () => {
    const { port } = new URL(server.url);
    const sockets: net.Socket[] = [];
    let connected = 0;
    // Stopped, the process takes no connection: the kernel completes each handshake into the queue while there is room.
    server.child.kill("SIGSTOP");
    try {
      for (let i = 0; i < 700; i++) {
        const socket = net.connect(Number(port), "127.0.0.1", () => connected++);
        socket.on("error", () => undefined);
        sockets.push(socket);
      }
      const deadline = Date.now() + 5000;
      while (connected < 700 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(connected).toBe(700);
    } finally {
      server.child.kill("SIGCONT");
      for (const socket of sockets) socket.destroy();
    }
    expect((await send("GET", "/healthz")).status).toBe(200);
  });
});

describe("draws waiting for their beacon round", () => {
  it("do not count against the bound: with more of them in flight than the bound, a new landing is served", async () => {
    // Three verified codes: each answer waits for its draw's round, served BEACON_LAG_MS late.
    const entries = Array.from({ length: 3 }, () => makePreregistration());
    const codes = entries.map((entry) => {
      const issued = issueCodeIn(db, {
        purpose: "preregistration",
        subjectId: entry.id,
        phone: entry.phone,
        text: (code) => code,
        smsPurpose: "otp",
        sender: "staff",
      });
      if (!issued.ok) throw new Error("no code issued");
      return issued.text;
    });
    // Each visitor is in a journey (their code was sent), as on the day.
    const cookie = await journeyCookie(Date.now() + 60_000);
    const draws = entries.map((entry, i) =>
      send("POST", `/api/v1/enquiry/${entry.slug}/verify`, {
        ...json({ code: codes[i] }),
        headers: { "Content-Type": "application/json", Cookie: cookie },
      }),
    );
    const waiting = async () => {
      const health = await send("GET", "/healthz");
      return JSON.parse(health.body).admission as { inFlight: number; waitingForDraw: number };
    };
    // The three draws wait in flight (and the health check itself).
    await expect.poll(waiting, { timeout: 5000, interval: 100 }).toMatchObject({ inFlight: 4, waitingForDraw: 3 });
    const landing = await send("GET", "/");
    expect(landing.status).toBe(200);
    // The draws came with their round.
    for (const draw of await Promise.all(draws)) {
      expect(draw.status).toBe(200);
      expect(JSON.parse(draw.body).data.draw.amount).toBeGreaterThan(0);
    }
  }, 60_000);
});
