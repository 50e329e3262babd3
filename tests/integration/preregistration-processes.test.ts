/**
 * Two server processes, each with its own connection to one SQLite file, take
 * public pre-registrations at the same moment: the address's rate limit counts
 * the tries of both (exactly the limit gets through), and a form submitted to
 * both at once (one form token) is one record, the same one for both.
 */
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq, inArray } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { databasePath, db, schema } from "@db/index";
import { LIMITS } from "~/utils/rate-limit.server";
import { makeBranch } from "../fixtures";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prereg-processes-"));
process.env.DATABASE_URL = `file:${path.join(dir, "prereg.sqlite")}`;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type Job = { key: string; address: string; fields: Record<string, string> };
type Result = { key: string; ok: boolean; slug?: string; duplicate?: boolean; code?: string };
type Report = { results: Result[]; errors: { key: string; message: string }[] };

const worker = fileURLToPath(new URL("./preregistration-worker.mjs", import.meta.url));

/** Starts one process per job list; once all are ready they start together. */
async function runProcesses(jobLists: Job[][]): Promise<Report[]> {
  const children: ChildProcess[] = [];
  const ready: Promise<void>[] = [];
  const done: Promise<Report>[] = [];
  for (const _ of jobLists) {
    const child = fork(worker, [], {
      env: { ...process.env, DATABASE_URL: `file:${databasePath()}`, RATE_LIMIT_FACTOR: "1" },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    children.push(child);
    ready.push(new Promise((resolve) => child.on("message", (m: { type: string }) => m.type === "ready" && resolve())));
    done.push(
      new Promise((resolve, reject) => {
        child.on("message", (m: { type: string } & Report) => m.type === "done" && resolve(m));
        child.on("exit", (code) => code && reject(new Error(`worker exited with ${code}`)));
      }),
    );
  }
  await Promise.all(ready);
  children.forEach((child, i) => child.send({ type: "go", jobs: jobLists[i] }));
  try {
    return await Promise.all(done);
  } finally {
    for (const child of children) child.kill();
  }
}

let phone = 9811000000;
let citizenship = 880000;

describe("public pre-registrations from two server processes", () => {
  it("hold the address's rate limit and the form token's idempotency across processes", async () => {
    const branch = makeBranch();
    const fields = (over: Record<string, string> = {}): Record<string, string> => ({
      name: "Two Process",
      address: "Kathmandu",
      phone: String(phone++),
      citizenship_no: String(citizenship++),
      nearest_branch_id: String(branch.id),
      ...over,
    });
    const allowed = LIMITS["enquiry-ip"].points;
    // Rate limit: each process sends as many creates as the limit allows, all from one address.
    const limited = (p: number): Job[] =>
      Array.from({ length: allowed }, (_, i) => ({ key: `limit-${p}-${i}`, address: "10.55.0.1", fields: fields() }));
    // Idempotency: the same forms (form tokens) reach both processes, each from its own address.
    const twins = Array.from({ length: 10 }, (_, i) =>
      fields({ form_token: `two-process-token-${String(i).padStart(4, "0")}` }),
    );
    const twinJobs: Job[] = twins.map((f, i) => ({ key: `twin-${i}`, address: `10.55.1.${i}`, fields: f }));

    const reports = await runProcesses([
      [...limited(0), ...twinJobs],
      [...limited(1), ...[...twinJobs].reverse()],
    ]);
    expect(reports.flatMap((r) => r.errors)).toEqual([]);
    const results = reports.flatMap((r) => r.results);

    const limitResults = results.filter((r) => r.key.startsWith("limit-"));
    expect(limitResults).toHaveLength(2 * allowed);
    expect(limitResults.filter((r) => r.ok)).toHaveLength(allowed);
    expect(limitResults.filter((r) => !r.ok).every((r) => r.code === "rate_limited")).toBe(true);
    // Every try of both processes was counted against the one key.
    const counter = db
      .select()
      .from(schema.rateLimitCounters)
      .where(eq(schema.rateLimitCounters.key, "10.55.0.1"))
      .get();
    expect(counter?.points).toBe(2 * allowed);

    for (const [i, twin] of twins.entries()) {
      const both = results.filter((r) => r.key === `twin-${i}`);
      expect(both).toHaveLength(2);
      expect(both.every((r) => r.ok)).toBe(true);
      expect(new Set(both.map((r) => r.slug)).size).toBe(1);
      expect(both.filter((r) => !r.duplicate)).toHaveLength(1);
      const rows = db
        .select()
        .from(schema.preregistrations)
        .where(eq(schema.preregistrations.form_token, twin.form_token))
        .all();
      expect(rows).toHaveLength(1);
    }
    // One code and one SMS per record made.
    const made = db
      .select({ id: schema.preregistrations.id, phone: schema.preregistrations.phone })
      .from(schema.preregistrations)
      .all();
    expect(made).toHaveLength(allowed + twins.length);
    const sms = db
      .select()
      .from(schema.smsMessages)
      .where(
        inArray(
          schema.smsMessages.to,
          made.map((m) => m.phone),
        ),
      )
      .all();
    expect(sms).toHaveLength(made.length);
  }, 120_000);
});
