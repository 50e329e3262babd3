// Builds one migrated SQLite file; every test file starts from a copy of it.
import fs from "node:fs";
import path from "node:path";
import { openDatabase } from "../../db/index";

export const TMP = path.resolve("tests/.tmp");
export const BASE_DB = path.join(TMP, "base.sqlite");

export default function setup() {
  fs.rmSync(TMP, { recursive: true, force: true });
  fs.mkdirSync(TMP, { recursive: true });
  const db = openDatabase(BASE_DB);
  db.$client.pragma("wal_checkpoint(TRUNCATE)");
  db.$client.pragma("journal_mode = DELETE");
  db.$client.close();
}
