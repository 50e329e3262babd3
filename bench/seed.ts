/**
 * The benchmark's large database: 200 branches, 500,000 pre-registrations and
 * 100,000 registrations (with their full-text index rows, written by the
 * migration's triggers), inserted with prepared statements in one transaction.
 * Made once under bench/.data and reused by later runs.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import { openDatabase } from "../db/index";
import { hashPassword } from "../app/utils/crypto.server";

/** BENCH_SCALE=10: ten times the records (5M pre-registrations, 1M registrations) in a database of its own. */
export const BENCH_SCALE = Math.max(1, Number(process.env.BENCH_SCALE ?? 1) || 1);
export const BENCH_SIZES = {
  branches: 200,
  preregistrations: 500_000 * BENCH_SCALE,
  registrations: 100_000 * BENCH_SCALE,
};
export const BENCH_USERS = { admin: "admin@bench.test", staff: "staff@bench.test", password: "Bench@12345" };
/** Bumped when the seeded shape changes, so an old database is rebuilt. */
export const BENCH_DATA_VERSION = "3";

const FIRST = [
  "Ram",
  "Sita",
  "Hari",
  "Gita",
  "Krishna",
  "Laxmi",
  "Bishnu",
  "Sarita",
  "Prakash",
  "Nirmala",
  "Suresh",
  "Anita",
  "Dipak",
  "Kamala",
  "Rajesh",
  "Puja",
  "Binod",
  "Sunita",
  "Ramesh",
  "Mina",
  "Ganesh",
  "Radha",
  "Shyam",
  "Parbati",
  "Santosh",
  "Asmita",
  "Bikash",
  "Roshani",
  "Kiran",
  "Sabina",
  "Nabin",
  "Pratima",
  "Sagar",
  "Manisha",
  "Umesh",
  "Srijana",
  "Anil",
  "Bimala",
  "Chandra",
  "Deepa",
  "Eshan",
  "Firoj",
  "Gopal",
  "Hema",
  "Ishwor",
  "Januka",
  "Kumar",
  "Lila",
  "Madan",
  "Nisha",
  "Om",
  "Pabitra",
  "Rabin",
  "Samjhana",
  "Tek",
  "Usha",
  "Bijay",
  "Yamuna",
  "Arjun",
  "Kopila",
];
const LAST = [
  "Thapa",
  "Shrestha",
  "Koirala",
  "Poudel",
  "Maharjan",
  "Tamang",
  "Adhikari",
  "Bhandari",
  "Gautam",
  "KC",
  "Magar",
  "Rai",
  "Karki",
  "Gurung",
  "Yadav",
  "Sharma",
  "Basnet",
  "Khadka",
  "Limbu",
  "Sherpa",
  "Bhattarai",
  "Acharya",
  "Pandey",
  "Neupane",
  "Dahal",
  "Rijal",
  "Subedi",
  "Ghimire",
  "Joshi",
  "Pokharel",
  "Lama",
  "Chaudhary",
  "Mahato",
  "Shah",
  "Thakuri",
  "Bista",
  "Rana",
  "Oli",
  "Pant",
  "Aryal",
  "Baral",
  "Dhakal",
  "Giri",
  "Kafle",
  "Lamichhane",
  "Mishra",
  "Nepal",
  "Ojha",
  "Paudyal",
  "Regmi",
];
const STATES = ["Koshi", "Madhesh", "Bagmati", "Gandaki", "Lumbini", "Karnali", "Sudurpashchim"];
const MODES = ["CASH", "CASH_EXCHANGE", "FINANCE", "FINANCE_EXCHANGE", "SELF_FINANCE", "SELF_FINANCE_EXCHANGE"];
const SOURCES = ["NEWSPAPER", "SOCIAL MEDIA", "RADIO", "TVC", "BRAND WEBSITE", "TEST RIDE"];
const PRIZES = [4000, 5000, 6000, 7000, 8000, 12000];
const COUPONS = [0, 1000, 2000, 5000];
const KATHMANDU_OFFSET_MS = (5 * 60 + 45) * 60_000;

const slug = () => crypto.randomBytes(12).toString("base64url");
const kathmanduDay = (ms: number) => new Date(ms + KATHMANDU_OFFSET_MS).toISOString().slice(0, 10);

export async function seedBenchDatabase(file: string, log: (s: string) => void = console.log) {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) fs.rmSync(f, { force: true });
  const db = openDatabase(file);
  const sqlite = db.$client;
  // A fresh file: a rollback journal of nothing, no fsync while loading; WAL again afterwards.
  sqlite.pragma("journal_mode = DELETE");
  sqlite.pragma("synchronous = OFF");
  sqlite.pragma("cache_size = -200000");
  const started = Date.now();
  const passwordHash = await hashPassword(BENCH_USERS.password);
  const roleId = (slugName: string) =>
    (sqlite.prepare("select id from roles where slug = ?").get(slugName) as { id: number }).id;

  const load = sqlite.transaction(() => {
    const branch = sqlite.prepare(
      "insert into branches (slug, title, state, district, city, location, phone) values (?, ?, ?, ?, ?, ?, ?)",
    );
    for (let b = 1; b <= BENCH_SIZES.branches; b++) {
      const state = STATES[b % STATES.length];
      branch.run(
        slug(),
        `Showroom ${String(b).padStart(3, "0")}`,
        state,
        `District ${b % 40}`,
        `City ${b}`,
        `Main road ${b}`,
        `01-${4400000 + b}`,
      );
    }
    const model = sqlite.prepare("insert into bike_models (slug, title) values (?, ?)");
    for (const t of ["Thunder 150", "Street 125", "Trail 200", "Scooty Breeze 110"]) model.run(slug(), t);
    const user = sqlite.prepare(
      "insert into users (slug, first_name, last_name, name, email, role_id, branch_id, password_hash) values (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    user.run(slug(), "Bench", "Admin", "Bench Admin", BENCH_USERS.admin, roleId("super-admin"), null, passwordHash);
    user.run(slug(), "Bench", "Staff", "Bench Staff", BENCH_USERS.staff, roleId("branch-staff"), 1, passwordHash);

    const pre = sqlite.prepare(
      `insert into preregistrations (slug, name, address, email, phone, citizenship_no, shared, bike_model_id, source,
        send_sms, is_verified, verified_at, purchased, prize, status, branch_id, nearest_branch_id, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const reg = sqlite.prepare(
      `insert into registrations (slug, bill_no, name, address, citizenship_no, email, phone, bike_model_id, engine_no,
        chasis_no, registration_no, payment_mode, send_sms, branch_id, preregistration_id, shared, status, confirmed_at,
        purchase_date, coupon_amount, coupon_code, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const now = Date.now();
    const span = 60 * 86_400_000; // sixty days of campaign
    let registrations = 0;
    for (let i = 1; i <= BENCH_SIZES.preregistrations; i++) {
      const first = FIRST[i % FIRST.length];
      const last = LAST[Math.floor(i / FIRST.length) % LAST.length];
      const name = `${first} ${last}`;
      const phone = String(9800000000 + i);
      const citizenship = String(1000000000 + i * 37);
      const atBranch = i % 10 < 7;
      const branchId = atBranch ? 1 + (i % BENCH_SIZES.branches) : null;
      const nearest = 1 + ((i * 3) % BENCH_SIZES.branches);
      const verified = i % 5 < 3;
      const created = now - span + Math.floor((i / BENCH_SIZES.preregistrations) * span) - 3_600_000;
      const createdIso = new Date(created).toISOString();
      const purchased = verified && registrations < BENCH_SIZES.registrations && (i % 3 === 0 || i === 1);
      const prize = verified ? PRIZES[i % PRIZES.length] : null;
      const shared = i % 4 === 0 ? 1 : 0;
      const info = pre.run(
        slug(),
        name,
        `${last} Tole ${i % 30}`,
        i % 3 === 0 ? `${first.toLowerCase()}${i}@mail.test` : null,
        phone,
        citizenship,
        shared,
        1 + (i % 4),
        SOURCES[i % SOURCES.length],
        verified ? 1 : 0,
        verified ? createdIso : null,
        purchased ? 1 : 0,
        prize,
        purchased ? "purchased" : verified ? "verified" : "unverified",
        branchId,
        nearest,
        createdIso,
        createdIso,
      );
      if (!purchased) continue;
      const j = registrations++;
      const regBranch = branchId ?? nearest;
      const regAt = created + 3_600_000;
      const status = j % 10 === 0 ? "pending" : j % 10 === 1 ? "confirmed" : "drawn";
      reg.run(
        slug(),
        `B${regBranch}-${100000 + j}`,
        name,
        `${last} Tole ${i % 30}`,
        citizenship,
        null,
        phone,
        1 + (i % 4),
        `EN${String(j).padStart(8, "0")}`,
        `CH${String(j * 7).padStart(9, "0")}`,
        `BA-${Math.floor(j / 9999) + 1}-PA-${(j % 9999) + 1}`,
        MODES[j % MODES.length],
        regBranch,
        Number(info.lastInsertRowid),
        shared,
        status,
        status === "pending" ? null : new Date(regAt).toISOString(),
        kathmanduDay(regAt),
        status === "drawn" ? COUPONS[j % COUPONS.length] : null,
        `TH-${j.toString(36).toUpperCase().padStart(8, "0")}`,
        new Date(regAt).toISOString(),
        new Date(regAt).toISOString(),
      );
    }
    if (registrations < BENCH_SIZES.registrations) throw new Error(`only ${registrations} registrations seeded`);
  });
  load();
  sqlite.pragma("journal_mode = WAL");
  sqlite
    .prepare("insert into settings (key, value) values ('bench_data_version', ?)")
    .run(JSON.stringify(BENCH_DATA_VERSION));
  sqlite.close();
  log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

export function benchDataVersion(file: string): string | null {
  if (!fs.existsSync(file)) return null;
  const db = openDatabase(file, { runMigrations: false });
  try {
    const row = db.$client.prepare("select value from settings where key = 'bench_data_version'").get() as
      { value: string } | undefined;
    return row ? (JSON.parse(row.value) as string) : null;
  } catch {
    return null;
  } finally {
    db.$client.close();
  }
}
