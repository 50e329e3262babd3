/**
 * Every core serves: cluster.js with WEB_CONCURRENCY=2 runs two server.js workers on one port. Both answer
 * requests; /healthz lists them with their own SMS slots; each takes many queued connections in one turn of its
 * event loop (its copies of the listening socket); a worker killed with SIGKILL is started again in its
 * slot; SIGTERM to the primary stops both gracefully and the primary exits 0. A WEB_CONCURRENCY that is not a
 * number is refused before anything starts.
 */
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClusterWorker } from "~/utils/cluster.server";
import { startServer, type ServerProcess } from "./server-process";

const dir = path.join(process.env.TEST_TMP_DIR!, `cluster-${crypto.randomBytes(4).toString("hex")}`);
let server: ServerProcess;

type Health = {
  worker: { index: number; pid: number } | null;
  workers: ClusterWorker[] | null;
  connections: { listeners: number; mostInOneTurn: number };
};

/** One GET on a connection of its own. */
function health(): Promise<Health> {
  return new Promise((resolve, reject) => {
    http
      .get(`${server.url}/healthz`, { agent: false, headers: { Connection: "close" } }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve(JSON.parse(body) as Health));
      })
      .on("error", reject)
      .setTimeout(5_000, function (this: http.ClientRequest) {
        this.destroy(new Error("no answer in 5 s"));
      });
  });
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const end = Date.now() + 120_000;
  for (;;) {
    const value = await read().catch(() => null);
    if (value !== null && done(value)) return value;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  fs.mkdirSync(dir, { recursive: true });
  server = await startServer(
    dir,
    { DATABASE_URL: process.env.DATABASE_URL!, WEB_CONCURRENCY: "2", SMS_WORKER_ID: "cluster-test" },
    { entry: "cluster.js" },
  );
}, 240_000);

afterAll(() => {
  server?.kill();
});

describe("cluster.js with WEB_CONCURRENCY=2", () => {
  let first: ClusterWorker[];

  it("runs two listening workers, each with its own SMS slot, and both answer requests", async () => {
    const seen = await until(
      health,
      (h) => (h.workers ?? []).length === 2 && h.workers!.every((w) => w.listening),
      "two listening workers",
    );
    first = seen.workers!;
    expect(first.map((w) => w.index)).toEqual([0, 1]);
    expect(first.map((w) => w.slot)).toEqual(["cluster-test/0", "cluster-test/1"]);
    expect(new Set(first.map((w) => w.pid)).size).toBe(2);
    expect(first.every((w) => w.pid !== server.child.pid && alive(w.pid))).toBe(true);

    // The workers take connections from the shared socket themselves: a few at once find both at work.
    const answeredBy = new Set<number>();
    for (let i = 0; i < 20 && answeredBy.size < 2; i++)
      for (const h of await Promise.all(Array.from({ length: 8 }, health))) answeredBy.add(h.worker!.pid);
    expect([...answeredBy].sort()).toEqual(first.map((w) => w.pid).sort());
  }, 240_000);

  it("takes many waiting connections in one turn of a worker's loop, not one a turn", async () => {
    // libuv takes one connection a turn from each listening descriptor: the workers listen on copies of the socket.
    const { port } = new URL(server.url);
    for (const w of first) process.kill(w.pid, "SIGSTOP");
    const sockets: net.Socket[] = [];
    try {
      const connected = await Promise.all(
        Array.from(
          { length: 64 },
          () =>
            new Promise<void>((resolve, reject) => {
              const socket = net.connect(Number(port), "127.0.0.1", () => resolve());
              socket.on("error", reject);
              sockets.push(socket);
            }),
        ),
      );
      expect(connected).toHaveLength(64); // in the kernel's queue: both workers are stopped
    } finally {
      for (const w of first) process.kill(w.pid, "SIGCONT");
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const seen = new Map<number, Health["connections"]>();
    for (let i = 0; i < 40 && seen.size < 2; i++) {
      const h = await health();
      if (!seen.has(h.worker!.pid)) seen.set(h.worker!.pid, h.connections);
    }
    for (const socket of sockets) socket.destroy();
    expect([...seen.values()].map((c) => c.listeners)).toEqual([16, 16]);
    expect(Math.max(...[...seen.values()].map((c) => c.mostInOneTurn))).toBeGreaterThanOrEqual(8);
  }, 120_000);

  it("starts a killed worker again in its slot", async () => {
    const victim = first[0];
    process.kill(victim.pid, "SIGKILL");
    const after = await until(
      health,
      (h) => {
        const w = h.workers?.find((x) => x.index === 0);
        return !!w && w.pid !== victim.pid && w.listening;
      },
      "worker 0 started again",
    );
    const again = after.workers!.find((w) => w.index === 0)!;
    expect(again).toMatchObject({ slot: "cluster-test/0", restarts: 1 });
    expect(after.workers!.find((w) => w.index === 1)).toMatchObject({ pid: first[1].pid, restarts: 0 });
    first = after.workers!;
  }, 240_000);

  it("stops every worker gracefully on SIGTERM, and exits 0", async () => {
    server.child.kill("SIGTERM");
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(first.filter((w) => alive(w.pid))).toEqual([]);
    expect(server.output()).toMatch(/SIGTERM: stopping 2 worker\(s\) gracefully/);
  }, 120_000);
});

describe("a WEB_CONCURRENCY that is not a number", () => {
  it("is refused before any worker starts", () => {
    const run = spawnSync(process.execPath, ["cluster.js"], {
      env: { ...process.env, WEB_CONCURRENCY: "many" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('WEB_CONCURRENCY must be a whole number from 1 to 64 (it is "many").');
  });
});
