/**
 * `npm run bench:integrity`: the integrity desk's figures beside their goals (decision 21), on a
 * database of its own (bench/.data/integrity-x{SCALE}.sqlite) made by the planted-cheats campaign
 * (tests/integrity-campaign.ts) at the bench's size: 500,000 pre-registrations (BENCH_SCALE=10:
 * 5 million) over the thirty days before it was made, at ten branches, with their verifications,
 * purchases and draws (a database kept past those days has its addresses purged by the recompute).
 * Reports: the full recompute (goal < 1 min), whether its flags hold every planted cheat with its
 * reason and how many honest entries, staff users and branches they take (goal: at most 1% of each;
 * judged as the planted-cheats test judges), the desk's first page (goal < 1 s), and what the
 * write-time screen adds to one public pre-registration's write. Nothing is asserted. BENCH_RESEED=1
 * makes the database again (bench/integrity-seed.ts); BENCH_SEED_ONLY=1 makes it and measures nothing.
 */
import fs from "node:fs";
import path from "node:path";

const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const file = path.resolve(`bench/.data/integrity-x${SCALE}.sqlite`);
fs.mkdirSync(path.dirname(file), { recursive: true });
if (process.env.BENCH_RESEED === "1")
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}.campaign.json`]) fs.rmSync(f, { force: true });
const fresh = !fs.existsSync(file);
process.env.DATABASE_URL = `file:${file}`;

const { db, schema } = await import("../db/index");
const { HONEST_SHARE, judgeFlags } = await import("../tests/integrity-campaign");
const { readCampaign, seedIntegrityBench } = await import("./integrity-seed");
const { recomputeIntegrity } = await import("../app/models/integrity-job.server");
const { listFlags } = await import("../app/models/integrity-desk.server");
const { screenNewEntry } = await import("../app/models/integrity-write.server");

const ENTRIES = 500_000 * SCALE;
const DAYS = 30;
const rows: [string, string, string][] = [];
const time = <T>(fn: () => T): [T, number] => {
  const t = performance.now();
  const out = fn();
  return [out, performance.now() - t];
};
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
/** This process's CPU time since `from` (user and system): on a shared machine, beside the wall clock. */
const cpu = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return `CPU ${s((used.user + used.system) / 1000)}`;
};

if (fresh) {
  const t = performance.now();
  const cpuFrom = process.cpuUsage();
  // The thirty days up to yesterday, so the entries' addresses are within their keeping, as in a live campaign.
  const firstDay = new Date(Date.now() - DAYS * 86_400_000).toISOString().slice(0, 10);
  const { campaign, ms } = await seedIntegrityBench(file, {
    days: DAYS,
    publicPerDay: Math.round((ENTRIES - DAYS * 40) / DAYS),
    firstDay,
  });
  const seedMs = performance.now() - t;
  console.log(`seeded ${JSON.stringify(campaign.counts)} in ${s(seedMs)}`);
  rows.push([
    `Made the database (x${SCALE})`,
    s(seedMs),
    `${cpu(cpuFrom)}; rows ${s(ms.load)}, indexes ${s(ms.indexes)}, full-text ${s(ms.fullText)}; ${(fs.statSync(file).size / 2 ** 30).toFixed(2)} GB`,
  ]);
}
// BENCH_SEED_ONLY=1: the database made (or found), nothing measured.
if (process.env.BENCH_SEED_ONLY === "1") process.exit(0);
const count = (t: string) => (db.$client.prepare(`select count(*) n from ${t}`).get() as { n: number }).n;
const size = `${count("preregistrations").toLocaleString()} entries, ${count("registrations").toLocaleString()} registrations, ${count("draws").toLocaleString()} draws`;

let cpuFrom = process.cpuUsage();
const [done, recomputeMs] = time(() => recomputeIntegrity());
const recomputeCpu = cpu(cpuFrom);
rows.push([
  `Full recompute (x${SCALE}: ${size})`,
  s(recomputeMs),
  `goal < 60 s ${recomputeMs < 60_000 ? "PASS" : "FAIL"}; ${recomputeCpu}; ${done.findings} findings, ${done.raised} new flags; RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`,
]);
const truth = readCampaign(file);
if (!truth)
  rows.push(["Planted cheats", "unknown", "the database was made before its campaign was kept: BENCH_RESEED=1"]);
else {
  const { missed, honest } = judgeFlags(truth);
  rows.push([
    `Planted cheats flagged with their reason`,
    `${truth.planted.length - missed.length} of ${truth.planted.length}`,
    `goal all ${missed.length ? `FAIL; missed: ${missed.join("; ")}` : "PASS"}`,
  ]);
  for (const [what, h] of [
    ["entries", honest.entries],
    ["staff users", honest.staff],
    ["branches", honest.branches],
  ] as const)
    rows.push([
      `Honest ${what} flagged`,
      `${h.flagged.toLocaleString()} of ${h.of.toLocaleString()} (${((100 * h.flagged) / Math.max(1, h.of)).toFixed(2)}%)`,
      `goal ≤ ${HONEST_SHARE * 100}% (${h.most.toLocaleString()}) ${h.flagged <= h.most ? "PASS" : "FAIL"}`,
    ]);
}
cpuFrom = process.cpuUsage();
const [again, againMs] = time(() => recomputeIntegrity());
rows.push(["Full recompute again (nothing new)", s(againMs), `${cpu(cpuFrom)}; ${again.raised} new flags`]);

const table = { draw: 1, start: 0, length: 25, search: "", order: [], columns: [], input: {} };
const pages: number[] = [];
for (let i = 0; i < 21; i++) pages.push(time(() => listFlags({ branchId: null }, table, { status: "open" }))[1]);
pages.sort((a, b) => a - b);
const flags = count("integrity_flags");
rows.push([
  `Desk, first page (${flags.toLocaleString()} flags)`,
  `p50 ${pages[10].toFixed(1)} ms · max ${pages[20].toFixed(1)} ms`,
  `goal < 1 s ${pages[20] < 1000 ? "PASS" : "FAIL"}`,
]);

// The write-time screen of a public pre-registration, against the insert it follows (rolled back).
const N = 2000;
let insertMs = 0;
let screenMs = 0;
try {
  db.transaction((tx) => {
    for (let i = 0; i < N; i++) {
      const phone = String(9700000000 + i);
      const [row, ins] = time(() =>
        tx
          .insert(schema.preregistrations)
          .values({
            slug: `bench-${i}-${Date.now()}`,
            name: "Bench",
            address: "Kathmandu",
            phone,
            citizenship_no: `9${phone}`,
          })
          .returning()
          .get(),
      );
      insertMs += ins;
      screenMs += time(() => screenNewEntry(tx, row, `100.64.${i % 250}.${i % 200}`))[1];
    }
    throw new Error("rolled back");
  });
} catch {
  // rolled back on purpose
}
rows.push([
  "Public write: the integrity screen of one pre-registration",
  `${((screenMs / N) * 1000).toFixed(0)} µs`,
  `beside the row's insert ${((insertMs / N) * 1000).toFixed(0)} µs (its triggers and indexes); a durable commit costs milliseconds`,
]);

console.log("\n| Integrity | Figure | Note |\n|---|---|---|");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
