// Builds one migrated SQLite file for this test run; every test file starts from a copy of it.
// Each run has its own folder, so parallel runs (and end-to-end servers) never share files.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { openDatabase } from "../../db/index";

export default function setup() {
  const dir = path.resolve("tests/.tmp", `vitest-${process.pid}-${crypto.randomBytes(3).toString("hex")}`);
  fs.mkdirSync(dir, { recursive: true });
  process.env.TEST_TMP_DIR = dir;
  const db = openDatabase(path.join(dir, "base.sqlite"));
  db.$client.pragma("wal_checkpoint(TRUNCATE)");
  db.$client.pragma("journal_mode = DELETE");
  db.$client.close();
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
