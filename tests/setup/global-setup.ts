// Builds one migrated SQLite file for this test run; every test file starts from a copy of it.
// Each run has its own folder, so parallel runs (and end-to-end servers) never share files.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { openDatabase } from "../../db/index";
import { startLocalBeacon } from "../../scripts/local-beacon.mjs";

/** The test run's beacon: drand's API on 127.0.0.1, a round a second from 2020 on (every test date is after it). */
/** Showroom hours that hold nothing (opens and closes at the same minute). */
export const ALL_DAY = { opens: "00:00", closes: "00:00" };

export const TEST_BEACON = { genesis: 1577836800, period: 1, name: "test" };

export default async function setup() {
  const beacon = await startLocalBeacon(TEST_BEACON);
  // A generous wait: the machine running the tests may be busy, and these tests are about the record.
  Object.assign(process.env, beacon.settings, { BEACON_WAIT_MS: "20000" });
  const dir = path.resolve("tests/.tmp", `vitest-${process.pid}-${crypto.randomBytes(3).toString("hex")}`);
  fs.mkdirSync(dir, { recursive: true });
  process.env.TEST_TMP_DIR = dir;
  const db = openDatabase(path.join(dir, "base.sqlite"));
  // Showrooms open all day (decision 21): a test's registration is made whatever the hour the run falls on,
  // and outside the default hours the desk would hold its coupon as off-hours. The desk's own tests set hours.
  db.$client.prepare("insert into settings (key, value) values ('integrity_hours', ?)").run(JSON.stringify(ALL_DAY));
  db.$client.pragma("wal_checkpoint(TRUNCATE)");
  db.$client.pragma("journal_mode = DELETE");
  db.$client.close();
  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await beacon.close();
  };
}
