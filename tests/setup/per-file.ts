// Each test file gets its own copy of the migrated database (a real SQLite file).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const dir = process.env.TEST_TMP_DIR!;
const file = path.join(dir, `test-${process.pid}-${crypto.randomBytes(4).toString("hex")}.sqlite`);
fs.copyFileSync(path.join(dir, "base.sqlite"), file);
process.env.DATABASE_URL = `file:${file}`;
process.env.DATA_DIR = path.join(dir, `data-${process.pid}`);
process.env.SESSION_SECRET = "test-secret";
process.env.RATE_LIMIT_FACTOR = process.env.RATE_LIMIT_FACTOR ?? "1";
