// Each test file gets its own copy of the migrated database (a real SQLite file).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const TMP = path.resolve("tests/.tmp");
const file = path.join(TMP, `test-${process.pid}-${crypto.randomBytes(4).toString("hex")}.sqlite`);
fs.copyFileSync(path.join(TMP, "base.sqlite"), file);
process.env.DATABASE_URL = `file:${file}`;
process.env.DATA_DIR = path.join(TMP, `data-${process.pid}`);
process.env.SESSION_SECRET = "test-secret";
process.env.RATE_LIMIT_FACTOR = process.env.RATE_LIMIT_FACTOR ?? "1";
