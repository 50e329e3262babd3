/**
 * What the benchmark's runs share (bench/run.ts, bench/surge.ts): the seeded database, the build,
 * starting and stopping the built server on it, signing in, and the small measuring helpers.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase } from "../db/index";
import { BENCH_DATA_VERSION, BENCH_SCALE, BENCH_SIZES, BENCH_USERS, benchDataVersion, seedBenchDatabase } from "./seed";
import { freePort } from "../tests/free-port";
export { freePort };

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DATA = path.join(ROOT, "bench/.data");
export const DB_FILE = path.join(DATA, BENCH_SCALE === 1 ? "bench.sqlite" : `bench-x${BENCH_SCALE}.sqlite`);
export const BUILD_DIR = process.env.BENCH_BUILD_DIR ?? "build-bench";

export const log = (s: string) => console.log(`[bench] ${s}`);
export const ms = (n: number) => `${n.toFixed(1)} ms`;
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

export function ensureBuild() {
  const entry = path.join(ROOT, BUILD_DIR, "server/index.js");
  // The build holds app/ and db/ (the connection, the schema).
  const sources = Math.max(
    newestMtime(path.join(ROOT, "app")),
    newestMtime(path.join(ROOT, "db")),
    fs.statSync(path.join(ROOT, "vite.config.ts")).mtimeMs,
  );
  if (!process.env.BENCH_REBUILD && fs.existsSync(entry) && fs.statSync(entry).mtimeMs > sources) {
    log(`using the build in ${BUILD_DIR}/`);
    return;
  }
  log(`building the app into ${BUILD_DIR}/ …`);
  execFileSync(path.join(ROOT, "node_modules/.bin/remix"), ["vite:build"], {
    cwd: ROOT,
    env: { ...process.env, BUILD_DIR },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

export async function ensureDatabase() {
  fs.mkdirSync(DATA, { recursive: true });
  if (!process.env.BENCH_RESEED && benchDataVersion(DB_FILE) === BENCH_DATA_VERSION) {
    log(`reusing ${path.relative(ROOT, DB_FILE)} (${mb(fs.statSync(DB_FILE).size)})`);
    clearLeftovers();
    return;
  }
  log(
    `seeding ${BENCH_SIZES.preregistrations.toLocaleString()} pre-registrations and ${BENCH_SIZES.registrations.toLocaleString()} registrations over ${BENCH_SIZES.branches} branches (once) …`,
  );
  await seedBenchDatabase(DB_FILE, log);
}

/**
 * A run that was stopped half-way leaves work a server would resume and measure beside (a broadcast
 * still being stored, messages waiting to be sent): removed, so every run starts from the seed's state.
 * The reused database is brought to the newest migration first, as the server would.
 */
function clearLeftovers() {
  const db = openDatabase(DB_FILE);
  try {
    const left = db.$client.prepare("select count(*) as n from sms_messages where status = 'queued'").get() as {
      n: number;
    };
    db.$client.exec(
      `delete from sms_messages where broadcast_id is not null or status = 'queued'; delete from sms_broadcast_mobiles; delete from sms_broadcasts;`,
    );
    if (left.n) log(`removed ${left.n.toLocaleString()} messages a stopped run left waiting`);
    db.$client.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.$client.close();
  }
}

export async function waitFor(url: string, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > end) throw new Error(`${url} did not answer`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function startApp(
  port: number,
  extraEnv: Record<string, string> = {},
  script: "server.js" | "cluster.js" = "server.js",
): Promise<ChildProcess> {
  const child = spawn(process.execPath, [script], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      BUILD_DIR,
      DATABASE_URL: `file:${DB_FILE}`,
      DATA_DIR: DATA,
      RATE_LIMIT_FACTOR: "100000",
      NODE_ENV: "production",
      SESSION_SECRET: "bench-secret",
      COOKIE_SECURE: "false",
      SMS_PROVIDER: "outbox",
      RECAPTCHA_SITE_KEY: "",
      RECAPTCHA_SECRET: "",
      // As `npm run serve` and the systemd unit start it (docs/operations.md, "Memory").
      MALLOC_MMAP_THRESHOLD_: "1048576",
      MALLOC_TRIM_THRESHOLD_: "4194304",
      ...extraEnv,
    },
    stdio: ["ignore", "ignore", "inherit", "ipc"], // ipc: the event-loop monitor's figures
  });
  await waitFor(`http://127.0.0.1:${port}/login`);
  return child;
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 8000).unref();
  });
}

export function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** A session cookie and an API token of a bench user (head office's admin unless named). */
export async function login(
  base: string,
  email: string = BENCH_USERS.admin,
): Promise<{ cookie: string; token: string }> {
  const form = new URLSearchParams({ email, password: BENCH_USERS.password, redirectTo: "/admin" });
  const res = await fetch(`${base}/login`, { method: "POST", body: form, redirect: "manual" });
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
  // "__Host-session" over HTTPS (the rehearsal through nginx), "__session" over plain http.
  if (!/^(__session|__Host-session)=/.test(cookie)) throw new Error(`login failed (${res.status})`);
  const api = await fetch(`${base}/api/v1/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: BENCH_USERS.password }),
  });
  const token = ((await api.json()) as { access_token: string }).access_token;
  return { cookie, token };
}
