/**
 * `npm run bench`: the project's benchmark. Seeds a large database once
 * (bench/.data/bench.sqlite: 500,000 pre-registrations, 100,000 registrations
 * over 200 branches) and reuses it, builds the app when the build is missing or
 * older than the sources, starts the built server (node server.js) on it and
 * reports:
 *  - the pre-registration list page with a search, p50/p95 (and the
 *    registration list's, a branch staff's, and the list without a search);
 *  - Registrations.xls for all 100,000 registrations: time, size, the server
 *    process's peak resident memory growth (sampled from /proc), and, while
 *    it runs, GET / latency (p99, max) and the server's event-loop delay
 *    (read from its monitor over IPC), each beside its goal;
 *  - the print sheet for 1,000 registrations: time;
 *  - SMS broadcasts on a server of their own (HTTP gateway provider, pointed at a fake gateway on
 *    127.0.0.1: tests/fake-sms-gateway.ts; SMS_RATE_PER_SECOND=200): a typed list of 100,000 numbers and
 *    one to every customer (ALL, about 300,000 numbers), each accepted (POST /api/v1/sms answered), then
 *    GET / latency and the event-loop delay while their messages are stored and sent over HTTP; the
 *    broadcasts are removed from the database afterwards;
 *  - idle server RSS (started, signed in, the landing page served);
 *  - public pre-registration POST (/api/v1/enquiry), then the OTP verify (with its draw) of every
 *    entry it made, then GET / throughput with autocannon, beside bare node:http floors in the same
 *    run: one durable insert (WAL, synchronous FULL) per POST, and a static 15 KB page per GET.
 * It prints a table; nothing is asserted. Options (environment):
 *   BENCH_DURATION=10 seconds per throughput run, BENCH_CONNECTIONS=10,
 *   BENCH_SEARCHES=100 measured list requests, BENCH_RESEED=1 to rebuild the
 *   database, BENCH_REBUILD=1 to rebuild the app, BENCH_BUILD_DIR (build-bench),
 *   BENCH_ONLY=lists,export,print,sms,post to run some parts only (e.g. BENCH_ONLY=sms),
 *   BENCH_SCALE=10 for ten times the records (its own database, bench-x10.sqlite).
 * At the end a table of the goals: each target, the figure, the floor measured in the same run
 * (bare node:http servers: one durable insert per POST; a static 15 KB page per GET) and PASS/FAIL.
 */
import autocannon, { type Result } from "autocannon";
import Database from "better-sqlite3";
import { execFileSync, fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";

import { openDatabase } from "../db/index";
import { startFakeGateway } from "../tests/fake-sms-gateway";
import { BENCH_SCALE, BENCH_SIZES, BENCH_USERS } from "./seed";
import { surge } from "./surge";
import {
  DATA,
  DB_FILE,
  ensureBuild,
  ensureDatabase,
  freePort,
  log,
  login,
  mb,
  ms,
  percentile,
  ROOT,
  rssOf,
  startApp,
  stop,
} from "./lib";

const BARE_DB = path.join(DATA, "bare.sqlite");
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 100);
const ONLY = new Set((process.env.BENCH_ONLY ?? "lists,export,print,sms,post").split(",").map((s) => s.trim()));

// ---------------------------------------------------------------- preparation

async function startBare(port: number): Promise<ChildProcess> {
  for (const f of [BARE_DB, `${BARE_DB}-wal`, `${BARE_DB}-shm`]) fs.rmSync(f, { force: true });
  const child = fork(path.join(ROOT, "bench/bare-server.mjs"), [BARE_DB, String(port)], {
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return child;
}

// ---------------------------------------------------------------- measuring

/** CPU seconds the process has used (user + system), from /proc: what a run costs however busy the machine is. */
function cpuOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 per second)
}

type EventLoopDelay = { p50: number; p99: number; max: number; mean: number; samples: number };

/** The server's event-loop delay since the last reset (its monitor, over IPC); `reset` starts a new window. */
function serverEventLoop(child: ChildProcess, reset: boolean): Promise<EventLoopDelay | null> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the server did not report its event loop")), 5000);
    const onMessage = (m: { type?: string; delay?: EventLoopDelay | null }) => {
      if (m?.type !== "event-loop") return;
      clearTimeout(timer);
      child.off("message", onMessage);
      resolve(m.delay ?? null);
    };
    child.on("message", onMessage);
    child.send({ type: "event-loop", reset });
  });
}

/** GET `url` one request after another until `until` settles; the latencies. */
async function latenciesUntil(url: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true)).catch(() => undefined);
  const times: number[] = [];
  while (!done) {
    const r = await timed(url, {});
    if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
    times.push(r.ms);
  }
  return times;
}

const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");

/** Registrations.xls: 100,000 rows in 5 s; ten times the rows in 20 s, never holding the event loop over 50 ms. */
const xlsGoalSeconds = BENCH_SCALE === 1 ? 5 : 20;
const exportLoopGoalMs = BENCH_SCALE === 1 ? 100 : 50;

/** One goal of the benchmark: what is aimed at, the figure measured, the floor it is set against (same run). */
type Goal = { goal: string; target: string; figure: string; floor: string; pass: boolean };
const goals: Goal[] = [];

async function timed(
  url: string,
  headers: Record<string, string>,
): Promise<{ ms: number; bytes: number; status: number }> {
  const t0 = performance.now();
  const res = await fetch(url, { headers });
  // Counted as it arrives and let go, as a browser saving a download does: gathering a 470 MB file in
  // this process's memory first cost the client several seconds of the two cores the server runs on.
  let bytes = 0;
  const reader = res.body?.getReader();
  for (let part = await reader?.read(); part && !part.done; part = await reader!.read()) bytes += part.value.byteLength;
  return { ms: performance.now() - t0, bytes, status: res.status };
}

/** A small deterministic random source, so every run searches the same terms. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

function searchTerms(n: number, seed = 20261121): string[] {
  const rand = prng(seed);
  const names = [
    "Thapa",
    "Sita",
    "Gurung",
    "Ram Thapa",
    "Sherpa",
    "Laxmi Rai",
    "Kumar",
    "Pokharel",
    "Bimala",
    "Hari Koirala",
    "Lamichhane",
    "Usha",
  ];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const k = i % 4;
    const id = 1 + Math.floor(rand() * BENCH_SIZES.preregistrations);
    if (k === 0) out.push(names[Math.floor(rand() * names.length)]);
    else if (k === 1)
      out.push(String(9800000000 + id)); // a customer's full phone
    else if (k === 2)
      out.push(String(9800000000 + id).slice(2, 8)); // part of a phone
    else out.push(String(1000000000 + id * 37).slice(0, 7)); // part of a citizenship number
  }
  return out;
}

/**
 * Each term's page timed one after another, after the first five (or `warmUp`) are asked once untimed:
 * a server in service has run its code enough times to have it compiled, which a fresh one has not.
 */
async function listLatencies(
  base: string,
  pathOf: (term: string) => string,
  cookie: string,
  terms: string[],
  warmUp = terms.slice(0, 5),
) {
  for (const t of warmUp) await timed(base + pathOf(t), { Cookie: cookie });
  const times: number[] = [];
  for (const t of terms) {
    const r = await timed(base + pathOf(t), { Cookie: cookie });
    if (r.status !== 200) throw new Error(`${pathOf(t)} answered ${r.status}`);
    times.push(r.ms);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95), n: times.length };
}

async function postThroughput(url: string): Promise<Result> {
  // Fresh phone numbers every run (the seeded ones are 98…; these are 96…/97…).
  let n = Math.floor(Math.random() * 50_000_000);
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: { "Content-Type": "application/json" },
    requests: [
      {
        method: "POST",
        setupRequest: (req) => {
          n++;
          const phone = String(9600000000 + (n % 199_999_999));
          return {
            ...req,
            body: JSON.stringify({
              name: "Bench Visitor",
              address: "Bench Road",
              phone,
              citizenship_no: String(5_000_000_000 + n),
              nearest_branch_id: 1 + (n % BENCH_SIZES.branches),
              source: "SOCIAL MEDIA",
            }),
          };
        },
      },
    ],
  });
}

/** The newest pre-registration id: entries made after it are the POST run's. */
function lastPreregistrationId(): number {
  const db = new Database(DB_FILE, { readonly: true });
  try {
    return (db.prepare("select max(id) as id from preregistrations").get() as { id: number | null }).id ?? 0;
  } finally {
    db.close();
  }
}

/** The POST run's entries, each with the code its SMS carries (the outbox keeps the text). */
function unverifiedEntries(afterId: number): { slug: string; code: string }[] {
  const db = new Database(DB_FILE, { readonly: true });
  try {
    const rows = db
      .prepare(
        `select p.slug, (select s.text from sms_messages s where s."to" = p.phone and s.purpose = 'otp'
           order by s.id desc limit 1) as text
         from preregistrations p where p.id > ? and p.verified_at is null order by p.id`,
      )
      .all(afterId) as { slug: string; text: string | null }[];
    return rows.flatMap((r) => {
      const code = r.text?.match(/\b(\d{6})\b/)?.[1];
      return code ? [{ slug: r.slug, code }] : [];
    });
  } finally {
    db.close();
  }
}

/** Each entry verified once with its right code (and so drawn), as fast as CONNECTIONS clients go. */
async function verifyThroughput(base: string, entries: { slug: string; code: string }[]): Promise<Result> {
  if (!entries.length) throw new Error("no fresh entries to verify");
  let i = 0;
  return autocannon({
    url: base,
    connections: CONNECTIONS,
    amount: entries.length,
    headers: { "Content-Type": "application/json" },
    requests: [
      {
        method: "POST",
        setupRequest: (req) => {
          const e = entries[i++ % entries.length];
          return { ...req, path: `/api/v1/enquiry/${e.slug}/verify`, body: JSON.stringify({ code: e.code }) };
        },
      },
    ],
  });
}

/** GET `url` for DURATION seconds with CONNECTIONS clients (no compression asked, as the floor). */
async function getThroughput(url: string): Promise<Result> {
  return autocannon({ url, connections: CONNECTIONS, duration: DURATION });
}

// ---------------------------------------------------------------- SMS broadcasts

/**
 * Broadcasts on a server of their own: a typed list of 100,000 numbers and one to every customer, each
 * accepted (the POST answered), then GET / one request after another while their messages are stored (in
 * chunks) and sent (200 a second) through the HTTP gateway provider to a fake gateway in this process,
 * until both are stored and 10 s more. The broadcasts and their messages are deleted afterwards, so the
 * database stays as seeded.
 */
async function smsBroadcasts(): Promise<[string, string, string][]> {
  log(
    "SMS broadcasts (100,000 typed numbers, then everyone), with GET / sent while they are stored and sent over HTTP …",
  );
  const port = await freePort();
  const gateway = await startFakeGateway();
  const app = await startApp(port, {
    SMS_RATE_PER_SECOND: "200",
    SMS_PROVIDER: "http",
    SMS_GATEWAY_URL: gateway.url,
    SMS_GATEWAY_TOKEN: "bench-token",
  }).catch(async (e: unknown) => {
    await gateway.close();
    throw e;
  });
  const base = `http://127.0.0.1:${port}`;
  const ids: number[] = [];
  const out: [string, string, string][] = [];
  try {
    const { token } = await login(base);
    const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    const send = async (body: unknown) => {
      const t0 = performance.now();
      const res = await fetch(`${base}/api/v1/sms`, { method: "POST", headers, body: JSON.stringify(body) });
      const ms = performance.now() - t0;
      const json = (await res.json()) as { data?: { id: number; total: number }; message?: string };
      if (res.status !== 201 || !json.data) throw new Error(`POST /api/v1/sms answered ${res.status}: ${json.message}`);
      ids.push(json.data.id);
      return { ms, total: json.data.total };
    };
    const state = async (id: number) => {
      const res = await fetch(`${base}/api/v1/sms/${id}`, { headers });
      return ((await res.json()) as { data: { status: string; stored: number; sent: number } }).data;
    };
    const idle = await listLatencies(base, () => "/", "", Array(50).fill(""));
    await serverEventLoop(app, true);
    const cpuBefore = cpuOf(app.pid!);
    const started = performance.now();
    // 100,000 distinct numbers in no order (i × 7919 runs through every remainder of 100,000 once).
    const mobiles = Array.from({ length: 100_000 }, (_, i) => String(9_600_000_000 + ((i * 7919) % 100_000)));
    const typed = await send({ type: "MOBILE", text: "Thrill Bikes: test ride days this weekend!", mobiles });
    // The acceptance alone (its body parsed, the list checked, sorted and written), then a new window.
    const accepting = await serverEventLoop(app, true);
    const everyone = await send({ type: "ALL", text: "थ्रिल बाइक्स: यो शनिबार नजिकको शोरुममा निःशुल्क टेस्ट राइड।" });
    let storedAfter = 0;
    const until = (async () => {
      for (;;) {
        const all = await Promise.all(ids.map(state));
        if (all.every((b) => b.status !== "preparing")) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      storedAfter = performance.now() - started;
      await new Promise((r) => setTimeout(r, 10_000));
    })();
    const during = await latenciesUntil(`${base}/`, until);
    const loop = await serverEventLoop(app, true);
    const cpu = cpuOf(app.pid!) - cpuBefore;
    const final = await Promise.all(ids.map(state));
    const sent = final.reduce((n, b) => n + b.sent, 0);
    const stored = final.reduce((n, b) => n + b.stored, 0);
    const overHttp = [...gateway.taken.values()].reduce((n, k) => n + k, 0);
    const p99 = percentile(during, 99);
    out.push([
      "SMS broadcast, 100,000 typed numbers: accepted",
      ms(typed.ms),
      `${typed.total.toLocaleString()} recipients (1.2 MB JSON body); goal ≤ 2 s ${verdict(typed.ms <= 2000)}`,
    ]);
    if (accepting) {
      goals.push({
        goal: "100,000-number broadcast accepted: server event-loop delay",
        target: "max ≤ 50 ms",
        figure: `max ${ms(accepting.max)}`,
        floor: `accepted in ${ms(typed.ms)}`,
        pass: accepting.max <= 50,
      });
    }
    out.push([
      "SMS broadcast to everyone (ALL): accepted",
      ms(everyone.ms),
      `${final[1].stored.toLocaleString()} distinct numbers, counted as they are stored; goal ≤ 2 s ${verdict(everyone.ms <= 2000)}`,
    ]);
    out.push([
      "Their messages stored (chunks of 250)",
      `${(storedAfter / 1000).toFixed(1)} s`,
      `${stored.toLocaleString()} messages; ${sent.toLocaleString()} sent by then +10 s at 200/s (${overHttp.toLocaleString()} taken by the fake gateway over HTTP); server CPU ${cpu.toFixed(1)} s`,
    ]);
    out.push([
      "GET / while they are stored and sent over HTTP",
      `p99 ${ms(p99)} · max ${ms(percentile(during, 100))}`,
      `${during.length} requests one after another (idle p95 ${ms(idle.p95)}); goal p99 ≤ 200 ms ${verdict(p99 <= 200)}`,
    ]);
    out.push([
      "Server event-loop delay meanwhile",
      loop ? `max ${ms(loop.max)} · p99 ${ms(loop.p99)}` : "monitor not running",
      loop ? `${loop.samples} samples; goal max ≤ 100 ms ${verdict(loop.max <= 100)}` : "",
    ]);
  } finally {
    await stop(app);
    await gateway.close();
    if (ids.length) {
      // In chunks of their own transactions: the main server still runs, and its SMS worker's writes must not
      // wait past their busy timeout behind one delete of millions of rows (at ten times the data).
      const db = openDatabase(DB_FILE, { runMigrations: false });
      const list = ids.join(",");
      const chunk = db.$client.prepare(
        `delete from sms_messages where id in (select id from sms_messages where broadcast_id in (${list}) limit 10000)`,
      );
      while (chunk.run().changes) await new Promise((r) => setImmediate(r));
      db.$client.exec(
        `delete from sms_broadcast_mobiles where broadcast_id in (${list}); delete from sms_broadcasts where id in (${list});`,
      );
      db.$client.pragma("wal_checkpoint(TRUNCATE)");
      db.$client.close();
    }
  }
  return out;
}

// ---------------------------------------------------------------- oversized bodies

/** Streams `megabytes` of JSON with no Content-Length to `url`; resolves with the status once answered. */
function streamedBody(url: string, megabytes: number): Promise<number> {
  return new Promise((resolve) => {
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    const req = http.request(url, { method: "POST", headers: { "Content-Type": "application/json" } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", () => resolve(0)); // the server may close the connection once it has answered 413
    let sent = 0;
    const write = () => {
      while (sent < megabytes) {
        sent++;
        if (!req.write(chunk)) return void req.once("drain", write);
      }
      req.end();
    };
    write();
  });
}

/**
 * Server RSS over bodies far past the limit, streamed without a declared length: five of 20 MB, then five
 * of 100 MB. A body is refused (413) and read no further than its allowance, so the growth does not follow
 * the bodies' size: the second round may add no more than 15 MB over the first.
 */
async function oversizedBodies(base: string, pid: number): Promise<Goal> {
  const before = rssOf(pid);
  const statuses = new Set<number>();
  const round = async (megabytes: number) => {
    let peak = rssOf(pid);
    for (let i = 0; i < 5; i++) {
      statuses.add(await streamedBody(`${base}/api/v1/enquiry`, megabytes));
      peak = Math.max(peak, rssOf(pid));
    }
    return peak;
  };
  const small = (await round(20)) - before;
  const large = (await round(100)) - before;
  return {
    goal: "Bodies far past the limit: server RSS growth, 5 × 100 MB against 5 × 20 MB",
    target: "≤ +15 MB more, each answered 413 (or closed once answered)",
    figure: `+${mb(large)} (answers ${[...statuses].join(", ")})`,
    floor: `5 × 20 MB: +${mb(small)}`,
    // 0: the connection was closed after the 413 while the client was still sending (past STREAMED_DRAIN_BYTES).
    pass: large - small <= 15 * 1024 * 1024 && [...statuses].every((s) => s === 413 || s === 0),
  };
}

// ---------------------------------------------------------------- the run

async function main() {
  await ensureDatabase();
  ensureBuild();
  const port = await freePort();
  const app = await startApp(port);
  const base = `http://127.0.0.1:${port}`;
  const rows: [string, string, string][] = [];
  try {
    const { cookie, token } = await login(base);
    // Idle: started, signed in, the landing page served a few times, then a second's rest.
    for (let i = 0; i < 20; i++) await timed(`${base}/`, {});
    await new Promise((r) => setTimeout(r, 1000));
    const idleRss = rssOf(app.pid!);
    goals.push({
      goal: "Idle server RSS",
      target: "≤ 150 MB",
      figure: mb(idleRss),
      floor: "",
      pass: idleRss <= 150 * 1024 * 1024,
    });
    goals.push(await oversizedBodies(base, app.pid!));

    if (ONLY.has("lists")) {
      const terms = searchTerms(SEARCHES);
      // Warmed with as many searches of other terms (another seed), so no measured term was asked before.
      const warmUp = searchTerms(SEARCHES, 20261122);
      log("list pages …");
      const pre = await listLatencies(
        base,
        (t) => `/admin/preregistration?search=${encodeURIComponent(t)}`,
        cookie,
        terms,
        warmUp,
      );
      rows.push([
        `Pre-registration list + search (${BENCH_SIZES.preregistrations.toLocaleString()} rows)`,
        `p50 ${ms(pre.p50)} · p95 ${ms(pre.p95)}`,
        `${pre.n} searches: names, full and partial phones, citizenship parts; after ${warmUp.length} searches of other terms`,
      ]);
      goals.push({
        goal: `Back-office list, first page + search (${BENCH_SIZES.preregistrations.toLocaleString()} pre-registrations)`,
        target: "p95 ≤ 20 ms",
        figure: `p95 ${ms(pre.p95)}`,
        floor: "",
        pass: pre.p95 <= 20,
      });
      const reg = await listLatencies(
        base,
        (t) => `/admin/registration?search=${encodeURIComponent(t)}`,
        cookie,
        terms,
        warmUp,
      );
      rows.push([
        `Registration list + search (${BENCH_SIZES.registrations.toLocaleString()} rows)`,
        `p50 ${ms(reg.p50)} · p95 ${ms(reg.p95)}`,
        `${reg.n} searches`,
      ]);
      // A counter's own list: a branch user's search reads the ids the branch reaches (a 200th of the rows).
      const staff = await login(base, BENCH_USERS.staff);
      const atBranch = await listLatencies(
        base,
        (t) => `/admin/preregistration?search=${encodeURIComponent(t)}`,
        staff.cookie,
        terms,
        warmUp,
      );
      rows.push([
        `Pre-registration list + search, a branch's staff (one branch of ${BENCH_SIZES.branches})`,
        `p50 ${ms(atBranch.p50)} · p95 ${ms(atBranch.p95)}`,
        `the same ${atBranch.n} searches (a full phone of another branch's public entry grants it to the branch)`,
      ]);
      const plain = await listLatencies(base, () => `/admin/preregistration`, cookie, terms.slice(0, 30));
      rows.push([
        "Pre-registration list, no search",
        `p50 ${ms(plain.p50)} · p95 ${ms(plain.p95)}`,
        "first page, with the entry count",
      ]);
    }

    if (ONLY.has("export")) {
      log("Registrations.xls, with GET / sent during it …");
      const idle = await listLatencies(base, () => "/", "", Array(50).fill(""));
      await serverEventLoop(app, true);
      const baseline = rssOf(app.pid!);
      const cpuBefore = cpuOf(app.pid!);
      let peak = baseline;
      const sampler = setInterval(() => {
        try {
          peak = Math.max(peak, rssOf(app.pid!));
        } catch {
          // process gone
        }
      }, 20);
      const download = timed(`${base}/api/v1/registration/download`, { Authorization: `Bearer ${token}` });
      const [xls, during] = await Promise.all([download, latenciesUntil(`${base}/`, download)]);
      clearInterval(sampler);
      peak = Math.max(peak, rssOf(app.pid!));
      const loop = await serverEventLoop(app, true);
      const cpu = cpuOf(app.pid!) - cpuBefore;
      if (xls.status !== 200) throw new Error(`download answered ${xls.status}`);
      const growth = peak - baseline;
      const p99 = percentile(during, 99);
      const rowsLabel = `${BENCH_SIZES.registrations.toLocaleString()} rows`;
      goals.push(
        {
          goal: `Registrations.xls (${rowsLabel}): time`,
          target: `≤ ${xlsGoalSeconds} s`,
          figure: `${(xls.ms / 1000).toFixed(2)} s`,
          floor: "",
          pass: xls.ms <= xlsGoalSeconds * 1000,
        },
        {
          goal: `Registrations.xls (${rowsLabel}): server RSS growth`,
          target: "≤ 100 MB",
          figure: mb(growth),
          floor: "",
          pass: growth <= 100 * 1024 * 1024,
        },
        {
          goal: "GET / during that export",
          target: "p99 ≤ 200 ms",
          figure: `p99 ${ms(p99)}`,
          floor: `idle p95 ${ms(idle.p95)}`,
          pass: p99 <= 200,
        },
      );
      if (loop)
        goals.push({
          goal: "Event-loop delay during that export",
          target: `max ≤ ${exportLoopGoalMs} ms`,
          figure: `max ${ms(loop.max)}`,
          floor: "",
          pass: loop.max <= exportLoopGoalMs,
        });
      rows.push([
        `Registrations.xls (${BENCH_SIZES.registrations.toLocaleString()} rows)`,
        `${(xls.ms / 1000).toFixed(2)} s · RSS +${mb(growth)}`,
        `${mb(xls.bytes)} file; server CPU ${cpu.toFixed(1)} s (with the GET /s); RSS ${mb(baseline)} → peak ${mb(peak)}; goals ≤ ${xlsGoalSeconds} s ${verdict(xls.ms <= xlsGoalSeconds * 1000)}, ≤ +100 MB ${verdict(growth <= 100 * 1024 * 1024)}`,
      ]);
      rows.push([
        "GET / during that export",
        `p99 ${ms(p99)} · max ${ms(percentile(during, 100))}`,
        `${during.length} requests one after another (idle p95 ${ms(idle.p95)}); goal p99 ≤ 200 ms ${verdict(p99 <= 200)}`,
      ]);
      rows.push([
        "Server event-loop delay during that export",
        loop ? `max ${ms(loop.max)} · p99 ${ms(loop.p99)}` : "monitor not running",
        loop
          ? `${loop.samples} samples (perf_hooks, 10 ms resolution); goal max ≤ ${exportLoopGoalMs} ms ${verdict(loop.max <= exportLoopGoalMs)}`
          : "",
      ]);
    }

    if (ONLY.has("print")) {
      log("print sheet …");
      const prints: number[] = [];
      let printBytes = 0;
      for (let i = 0; i < 3; i++) {
        const r = await timed(`${base}/admin/print?limit=1000&preview=1`, { Cookie: cookie });
        if (r.status !== 200) throw new Error(`print answered ${r.status}`);
        prints.push(r.ms);
        printBytes = r.bytes;
      }
      rows.push([
        "Print sheet, 1,000 registrations (2,000 coupons, 167 pages)",
        `${ms(percentile(prints, 50))} (median of 3)`,
        `${mb(printBytes)} HTML`,
      ]);
    }

    if (ONLY.has("sms")) rows.push(...(await smsBroadcasts()));

    if (ONLY.has("post")) {
      log(`POST /api/v1/enquiry for ${DURATION} s with ${CONNECTIONS} connections …`);
      const lastId = lastPreregistrationId();
      const appPost = await postThroughput(`${base}/api/v1/enquiry`);
      const entries = unverifiedEntries(lastId);
      log(`POST /api/v1/enquiry/{slug}/verify (with its draw) over ${entries.length.toLocaleString()} fresh entries …`);
      const appVerify = await verifyThroughput(base, entries);
      log(`GET / for ${DURATION} s with ${CONNECTIONS} connections …`);
      const appGet = await getThroughput(`${base}/`);
      // What the stack costs before any work: Express, the adapter and Remix's routing, no database.
      log(`GET /api/v1/enquiry (a route that only answers 405) for ${DURATION} s …`);
      const appEmpty = await getThroughput(`${base}/api/v1/enquiry`);
      await stop(app);
      const barePort = await freePort();
      const bare = await startBare(barePort);
      log(`bare node:http + better-sqlite3 insert for ${DURATION} s …`);
      const barePost = await postThroughput(`http://127.0.0.1:${barePort}/`);
      log(`bare node:http static 15 KB page for ${DURATION} s …`);
      const bareGet = await getThroughput(`http://127.0.0.1:${barePort}/`);
      await stop(bare);
      const rps = (r: Result) => r.requests.average;
      const summary = (r: Result) => `${rps(r).toFixed(0)} req/s · p50 ${r.latency.p50} ms · p99 ${r.latency.p99} ms`;
      const counts = (r: Result) => `${r["2xx"]} 2xx, ${r.non2xx} non-2xx, ${r.errors} errors`;
      rows.push(
        ["Public pre-registration POST /api/v1/enquiry", summary(appPost), counts(appPost)],
        [
          "OTP verify POST /api/v1/enquiry/{slug}/verify",
          summary(appVerify),
          `${counts(appVerify)}; each a right code and its draw`,
        ],
        ["GET / (the landing page)", summary(appGet), counts(appGet)],
        [
          "Ceiling: this server, a route doing nothing (405)",
          summary(appEmpty),
          `Express + Remix routing alone; the enquiry POST runs at ${(rps(appPost) / rps(appEmpty)).toFixed(2)}× of it`,
        ],
        ["Floor: bare node:http + one durable SQLite insert", summary(barePost), counts(barePost)],
        ["Floor: bare node:http, a static 15 KB page", summary(bareGet), counts(bareGet)],
      );
      const ratio = (a: Result, b: Result) => rps(a) / rps(b);
      const faults = (r: Result) => r.errors + r.non2xx;
      goals.push(
        {
          goal: "Public POST /api/v1/enquiry, against the durable-insert floor",
          target: "≥ 0.5× · 0 errors",
          figure: `${ratio(appPost, barePost).toFixed(3)}× (${rps(appPost).toFixed(0)} req/s; ${faults(appPost)} errors)`,
          floor: `${rps(barePost).toFixed(0)} req/s`,
          pass: ratio(appPost, barePost) >= 0.5 && faults(appPost) === 0,
        },
        {
          goal: "POST OTP verify (with its draw), against the same floor",
          target: "≥ 0.3×",
          figure: `${ratio(appVerify, barePost).toFixed(3)}× (${rps(appVerify).toFixed(0)} req/s; ${faults(appVerify)} errors)`,
          floor: `${rps(barePost).toFixed(0)} req/s`,
          pass: ratio(appVerify, barePost) >= 0.3 && faults(appVerify) === 0,
        },
        {
          goal: "Public POST /api/v1/enquiry, against a route doing nothing (405) on the same server",
          target: "≥ 0.5×",
          figure: `${ratio(appPost, appEmpty).toFixed(3)}× (${rps(appPost).toFixed(0)} req/s)`,
          floor: `${rps(appEmpty).toFixed(0)} req/s`,
          pass: ratio(appPost, appEmpty) >= 0.5 && faults(appPost) === 0,
        },
        {
          goal: "POST OTP verify (with its draw), against the same route doing nothing",
          target: "≥ 0.5×",
          figure: `${ratio(appVerify, appEmpty).toFixed(3)}× (${rps(appVerify).toFixed(0)} req/s)`,
          floor: `${rps(appEmpty).toFixed(0)} req/s`,
          pass: ratio(appVerify, appEmpty) >= 0.5 && faults(appVerify) === 0,
        },
        {
          goal: "GET /, against the static-page floor",
          target: "≥ 0.05× · 0 errors",
          figure: `${ratio(appGet, bareGet).toFixed(3)}× (${rps(appGet).toFixed(0)} req/s; ${faults(appGet)} errors)`,
          floor: `${rps(bareGet).toFixed(0)} req/s`,
          pass: ratio(appGet, bareGet) >= 0.05 && faults(appGet) === 0,
        },
      );
    }
  } finally {
    await stop(app);
  }

  const sqliteVersion = execFileSync(
    process.execPath,
    [
      "-e",
      "const D=require('better-sqlite3');console.log(new D(':memory:').prepare('select sqlite_version() v').get().v)",
    ],
    { cwd: ROOT },
  )
    .toString()
    .trim();
  // Other work on the machine inflates every figure: the load average says how busy it was.
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
  console.log(
    `\nBenchmark · Node ${process.version} · SQLite ${sqliteVersion} · ${os.cpus().length} × ${os.cpus()[0]?.model.trim()} · database ${mb(fs.statSync(DB_FILE).size)} · load average ${load}\n`,
  );
  const widths = [0, 1, 2].map((i) =>
    Math.max(...rows.map((r) => r[i].length), ["Measure", "Result", "Notes"][i].length),
  );
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  console.log(line(["Measure", "Result", "Notes"]));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows) console.log(line(r));

  const head = ["Goal", "Target", "Figure", "Floor (same run)", "Result"];
  const cells = goals.map((g) => [g.goal, g.target, g.figure, g.floor, verdict(g.pass)]);
  const gw = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const gline = (c: string[]) => `| ${c.map((x, i) => x.padEnd(gw[i])).join(" | ")} |`;
  console.log(`\nGoals (scale ${BENCH_SCALE}×, ${os.cpus().length} cores)\n`);
  console.log(gline(head));
  console.log(`|${gw.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const c of cells) console.log(gline(c));
}

(process.argv.includes("--surge") ? surge() : main()).catch((e) => {
  console.error(e);
  process.exit(1);
});
