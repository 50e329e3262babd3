/**
 * The bound counts only while the event loop is busy: requests in flight that wait on something else than this
 * process's CPU turn nobody away; the same requests in flight with the loop just busy do. The requests read
 * together start staff first, then journeys, then the rest, and a standing queue of new ones turns the next new
 * one away. (The run queue itself: app/utils/run-queue.server.test.ts; the priorities, the page and what a
 * refusal reads: tests/integration/admission.test.ts, on the real server.)
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import net from "node:net";
import { createCookie } from "@remix-run/node";
import { afterEach, describe, expect, it, vi } from "vitest";
import { admission, admissionState, busyLanguage, serverBusy } from "./admission.server";
import { SESSION_COOKIE } from "./cookie-name.server";
import { JOURNEY_COOKIE } from "./journey.server";
import { WINDOW_MS } from "~/utils/run-queue.server";

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

/** A server with the admission control (bound 1, busy from 90%) before a handler that holds /hold unanswered. */
async function serve(): Promise<string> {
  const admit = admission({
    pagesDir: path.resolve("public/busy"),
    settings: { inFlight: 1, loopBusy: 0.9, queueMs: 0 },
    secrets: ["test-secret"],
  });
  const server = http.createServer((req, res) =>
    admit(req, res, () => {
      if (req.url !== "/hold") res.end("served");
    }),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const get = (url: string, { spinMs = 0 } = {}) =>
  new Promise<number>((resolve, reject) => {
    const req = http.get(url, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    // The loop busy once the request is on its way, until well after it has arrived.
    req.on("socket", (socket) =>
      socket.once("connect", () =>
        setImmediate(() => {
          const end = performance.now() + spinMs;
          while (performance.now() < end);
        }),
      ),
    );
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the bound", () => {
  it("turns nobody away while the requests in flight wait with the loop idle", async () => {
    const base = await serve();
    http.get(`${base}/hold`, { agent: false }).on("error", () => undefined);
    await sleep(300);
    expect(await get(`${base}/`)).toBe(200);
  });

  it("turns a new request away when the loop is busy past the bound", async () => {
    const base = await serve();
    http.get(`${base}/hold`, { agent: false }).on("error", () => undefined);
    await sleep(300);
    expect(await get(`${base}/`, { spinMs: 250 })).toBe(503);
    expect(admissionState()?.refusedBy).toEqual({ new: 0, resume: 0, drawn: 0, bound: 1 });
  });
});

/**
 * A server with the admission control (no bound in flight; `queueMs` the run queue's) whose handler notes each
 * request's start and spins `spinMs` in the microtask it sets off.
 */
async function recording(spinMs: number, queueMs = 0) {
  const started: { url: string; turn: number }[] = [];
  let turn = 0;
  const turns = setInterval(() => turn++, 0); // timers run once a turn
  const admit = admission({
    pagesDir: path.resolve("public/busy"),
    settings: { inFlight: 0, loopBusy: 0, queueMs },
    secrets: ["test-secret"],
  });
  const server = http.createServer((req, res) =>
    admit(req, res, () => {
      started.push({ url: req.url!, turn });
      // The work after the start's first await (a loader, a render): in the microtasks it sets off.
      void Promise.resolve().then(() => {
        const end = performance.now() + spinMs;
        while (performance.now() < end);
        res.end("served");
      });
    }),
  );
  servers.push(server);
  server.once("close", () => clearInterval(turns));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, started, stop: () => clearInterval(turns) };
}

/** Connections opened first, then every request written while this loop is held: the server reads them in one turn. */
async function together(port: number, requests: string[]) {
  const sockets = await Promise.all(
    requests.map(
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const socket = net.connect(port, "127.0.0.1", () => resolve(socket));
          socket.on("error", reject);
        }),
    ),
  );
  await sleep(50); // the server has taken every connection
  const answered = sockets.map((socket) => new Promise((resolve) => socket.on("data", resolve)));
  requests.forEach((head, i) => sockets[i].write(head));
  const end = performance.now() + 100;
  while (performance.now() < end);
  await Promise.all(answered);
  sockets.forEach((socket) => socket.destroy());
}

const request = (url: string, cookie = "") =>
  `GET ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\n${cookie ? `Cookie: ${cookie}\r\n` : ""}\r\n`;

describe("the run queue", () => {
  it("starts the requests read together staff first, then journeys, then the rest", async () => {
    const secrets = ["test-secret"];
    const staff = (await createCookie(SESSION_COOKIE, { secrets }).serialize("someone")).split(";")[0];
    const journey = (await createCookie(JOURNEY_COOKIE, { secrets }).serialize({ until: Date.now() + 60_000 })).split(
      ";",
    )[0];
    const { port, started, stop } = await recording(0);
    await together(port, [
      request("/new-1"),
      request("/enquiry/code", journey),
      request("/admin", staff),
      request("/new-2"),
    ]);
    stop();
    expect(started.map((s) => s.url)).toEqual(["/admin", "/enquiry/code", "/new-1", "/new-2"]);
  });
});

describe("a standing queue", () => {
  it("turns new visitors away while every new start over a window waited past the bound; staff go on", async () => {
    const secrets = ["test-secret"];
    const staff = (await createCookie(SESSION_COOKIE, { secrets }).serialize("someone")).split(";")[0];
    // A hundred pages of 10 ms each read together: a second of work, started a slice at a time.
    const { port, started, stop } = await recording(10, 20);
    const burst = together(
      port,
      Array.from({ length: 100 }, (_, i) => request(`/page-${i}`)),
    );
    await sleep(WINDOW_MS + 250); // a window in which every start waited more than 20 ms
    const status = (cookie?: string) =>
      new Promise<number>((resolve, reject) =>
        http
          .get(`http://127.0.0.1:${port}/late`, { agent: false, headers: cookie ? { Cookie: cookie } : {} }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          })
          .on("error", reject),
      );
    const [late, lateStaff] = await Promise.all([status(), status(staff)]);
    await burst;
    stop();
    expect(late).toBe(503);
    expect(lateStaff).toBe(200);
    expect(started).toHaveLength(101); // the burst, then staff
    expect(admissionState()?.refusedBy).toEqual({ new: 1, resume: 0, drawn: 0, bound: 0 });
    // Once the queue has drained, a new visitor is served again.
    expect(await status()).toBe(200);
  });
});

describe("serverBusy (what background work gives way to)", () => {
  it("is true with four requests held or the loop busy, false once they are answered and the loop idle", async () => {
    const base = await serve();
    await sleep(150);
    expect(serverBusy()).toBe(false);
    const held = Array.from({ length: 4 }, () => {
      const req = http.get(`${base}/hold`, { agent: false });
      req.on("error", () => undefined);
      return req;
    });
    await vi.waitFor(() => expect(serverBusy()).toBe(true), { timeout: 2000, interval: 10 });
    held.forEach((req) => req.destroy());
    await sleep(150);
    expect(serverBusy()).toBe(false);
    const end = performance.now() + 120;
    while (performance.now() < end);
    expect(serverBusy()).toBe(true);
  });
});

describe("the busy page's language", () => {
  it("is the language cookie's, else Nepali when Accept-Language names Nepali first", () => {
    const lang = (cookie?: string, acceptLanguage?: string) =>
      busyLanguage({ headers: { cookie, "accept-language": acceptLanguage } });
    expect(lang("lang=ne", "en-US,en")).toBe("ne");
    expect(lang("lang=en", "ne-NP")).toBe("en");
    expect(lang(undefined, "ne-NP,ne;q=0.9,en;q=0.8")).toBe("ne");
    expect(lang(undefined, "ne")).toBe("ne");
    expect(lang(undefined, "en-GB,ne;q=0.9")).toBe("en");
    expect(lang(undefined, "new")).toBe("en");
    expect(lang("lang=fr")).toBe("en");
    expect(lang()).toBe("en");
  });
});
