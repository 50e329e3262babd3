/**
 * kill -9 of a server process during a burst of public writes (tests/integration/crash-writer.ts, the app's own DB
 * layer and models), then a restart: every acknowledged record is there, integrity_check is ok, and the SMS the
 * dead process left queued or claimed go out at once (not after their lease), each at most once; the one that
 * was with the gateway at the kill is failed as "delivery unknown" rather than sent again.
 * Several runs at once, each on its own database file.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db, schema } from "@db/index";
import { CLAIM_LEASE_MS, INTERRUPTED_ERROR } from "~/models/sms-delivery.server";
import { startSmsWorker } from "~/models/sms-worker.server";
import { httpGatewayProvider } from "~/models/sms-provider.server";

const RUNS = 3;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crash-"));
/** What the gateway took: its path (the run), and the message as number and text (a code's text alone repeats across phones). */
const received: { path: string; message: string }[] = [];
let gateway: http.Server;
let gatewayUrl = "";

beforeAll(async () => {
  gateway = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const form = new URLSearchParams(body);
      received.push({ path: req.url ?? "", message: `${form.get("to")} ${form.get("text")}` });
      setTimeout(() => res.end(JSON.stringify({ count: 1, response_code: 200, response: "queued" })), 5);
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
});

afterAll(async () => {
  gateway.closeAllConnections();
  await new Promise<void>((resolve) => gateway.close(() => resolve()));
  fs.rmSync(dir, { recursive: true, force: true });
});

type Ack = { entry: number; phone: string; sms: number };

/**
 * Starts a writer on a copy of the migrated database and kills it with SIGKILL in the middle of its burst:
 * once it has acknowledged `afterAcks` writes (counted, not timed, so a slow machine kills it mid-burst too),
 * with eight more in flight.
 */
function crashRun(run: number, afterAcks: number): Promise<{ file: string; acks: Ack[] }> {
  const file = path.join(dir, `run-${run}.sqlite`);
  fs.copyFileSync(path.join(process.env.TEST_TMP_DIR!, "base.sqlite"), file);
  const child = spawn(process.execPath, ["--import", "tsx", "tests/integration/crash-writer.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: `file:${file}`,
      SMS_WORKER_ID: `crash-${run}`,
      SMS_GATEWAY_URL: `${gatewayUrl}/run-${run}/`,
      PHONE_BASE: String(9800000000 + run * 100_000),
      RATE_LIMIT_FACTOR: "1000000",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const acks: Ack[] = [];
  let rest = "";
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) {
        const m = /^ack (\d+) (\d+) (\d+)$/.exec(line);
        if (m) acks.push({ entry: Number(m[1]), phone: m[2], sms: Number(m[3]) });
        if (m && acks.length === afterAcks) child.kill("SIGKILL");
      }
    });
    child.on("error", reject);
    child.on("exit", (_code, signal) =>
      signal === "SIGKILL" ? resolve({ file, acks }) : reject(new Error(`writer ${run} ended by itself`)),
    );
  });
}

describe("kill -9 during a burst of public writes", () => {
  it(`${RUNS} runs: every acknowledged record survives, the database is intact, and stale SMS go out once`, async () => {
    const runs = await Promise.all(Array.from({ length: RUNS }, (_, run) => crashRun(run, 40 + run * 40)));
    let leftClaimed = 0;
    for (const [run, { file, acks }] of runs.entries()) {
      expect(acks.length, `run ${run} acknowledged writes`).toBeGreaterThan(0);
      // The restart: the server opens the file again (migrations, pragmas) and starts its worker in the same slot.
      process.env.DATABASE_URL = `file:${file}`;
      expect(db.$client.pragma("integrity_check", { simple: true })).toBe("ok");

      const ids = acks.map((a) => a.entry);
      const entries = db
        .select({ id: schema.preregistrations.id, phone: schema.preregistrations.phone })
        .from(schema.preregistrations)
        .where(inArray(schema.preregistrations.id, ids))
        .all();
      expect(new Map(entries.map((e) => [e.id, e.phone]))).toEqual(new Map(acks.map((a) => [a.entry, a.phone])));
      const codes = db
        .select({ n: sql<number>`count(*)` })
        .from(schema.oneTimeCodes)
        .where(inArray(schema.oneTimeCodes.subject_id, ids))
        .get()!.n;
      expect(codes).toBe(acks.length);
      const M = schema.smsMessages;
      const messages = db
        .select()
        .from(M)
        .where(
          inArray(
            M.id,
            acks.map((a) => a.sms),
          ),
        )
        .all();
      expect(messages.map((m) => m.subject_id).sort((a, b) => a! - b!)).toEqual(ids.sort((a, b) => a - b));

      leftClaimed += db
        .select({ n: sql<number>`count(*)` })
        .from(M)
        .where(and(eq(M.status, "queued"), isNotNull(M.claimed_by)))
        .get()!.n;
      const provider = httpGatewayProvider({ url: `${gatewayUrl}/run-${run}/`, token: "tok", from: "Crash" });
      const stop = startSmsWorker({
        ratePerSecond: 1000,
        intervalMs: 10,
        slot: `crash-${run}`,
        provider: () => provider,
      });
      try {
        // Well inside the dead process's leases (CLAIM_LEASE_MS): taken over because it is the same slot.
        const queued = () => db.select({ id: M.id }).from(M).where(eq(M.status, "queued")).all();
        await vi.waitFor(() => expect(queued()).toEqual([]), { timeout: Math.min(10_000, CLAIM_LEASE_MS / 2) });
      } finally {
        await stop();
      }

      const all = db.select().from(M).all();
      const taken = received.filter((r) => r.path === `/run-${run}/`).map((r) => r.message);
      const times = new Map<string, number>();
      for (const t of taken) times.set(t, (times.get(t) ?? 0) + 1);
      expect(
        [...times.values()].every((n) => n === 1),
        `run ${run}: a message reached the gateway twice`,
      ).toBe(true);
      const failed = all.filter((m) => m.status === "failed");
      expect(failed.every((m) => m.error === INTERRUPTED_ERROR)).toBe(true);
      expect(failed.length).toBeLessThanOrEqual(1); // the worker hands over one message at a time
      for (const m of all.filter((m) => m.status === "sent")) expect(times.get(`${m.to} ${m.text}`)).toBe(1);
      expect(all.every((m) => m.status !== "queued" && m.claimed_by === null)).toBe(true);
    }
    // The runs did leave claims behind (the burst outpaces the gateway), so the recovery was exercised.
    expect(leftClaimed).toBeGreaterThan(0);
  });
});
