/**
 * The server the end-to-end tests drive (playwright.config.ts starts it): its port and database.
 * Importing this module first points the product's own modules in the test process at that server's
 * database and cookie secret, so tests set their data up through the models (tests/e2e/data.ts).
 */
import path from "node:path";

export const port = Number(process.env.E2E_PORT ?? 4173);
export const dbFile = path.resolve(`tests/.tmp/e2e-${port}/app.sqlite`);

// The same values as the server's own (playwright.config.ts, webServer.env).
process.env.DATABASE_URL = `file:${dbFile}`;
process.env.DATA_DIR = path.dirname(dbFile);
process.env.SESSION_SECRET = "e2e-secret";
process.env.COOKIE_SECURE = "false";
