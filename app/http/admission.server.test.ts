/**
 * The bound counts only while the event loop is busy: requests in flight that wait on something else than this
 * process's CPU turn nobody away; the same requests in flight with the loop just busy do. (The priorities, the
 * page and what a refusal reads: tests/integration/admission.test.ts, on the real server.)
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { admission, busyLanguage, serverBusy } from "./admission.server";

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
    settings: { inFlight: 1, loopBusy: 0.9 },
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
