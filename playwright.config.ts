import { defineConfig, devices } from "@playwright/test";
import { beaconSettings, makeChain } from "./scripts/local-beacon.mjs";

/**
 * End-to-end tests drive the built server (node server.js) in Debian's Chromium,
 * once with JavaScript and once without. The server gets its own fresh database.
 * E2E_PORT and BUILD_DIR let several runs share a machine.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
const buildDir = process.env.BUILD_DIR ?? "build";
export const baseURL = `http://localhost:${port}`;
const dataDir = `tests/.tmp/e2e-${port}`;
/** The demonstration beacon (drand's API on 127.0.0.1, the demo data's key): the server's draws wait for its rounds. */
const beaconPort = Number(process.env.E2E_BEACON_PORT ?? port + 9);
const beacon = beaconSettings(makeChain(), `http://127.0.0.1:${beaconPort}`);

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
  ],
};

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: process.env.E2E_OUTPUT ?? "test-results",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // A test that fails once is a failure: no retries hide a test that passes by chance.
  retries: 0,
  reporter: process.env.CI ? "line" : "list",
  use: { baseURL, launchOptions: chromium, trace: "retain-on-failure" },
  projects: [
    {
      name: "js",
      testIgnore: /route-variants|deploy-nginx|busy-nginx/,
      use: { ...devices["Desktop Chrome"], launchOptions: chromium, javaScriptEnabled: true },
    },
    {
      name: "nojs",
      testIgnore: /route-variants|deploy-nginx|busy-nginx/,
      use: { ...devices["Desktop Chrome"], launchOptions: chromium, javaScriptEnabled: false },
    },
    // The deployment files (deploy/) run with Debian's nginx in front of their own server: once.
    { name: "deploy", testMatch: /deploy-nginx|busy-nginx/, use: { launchOptions: chromium } },
    // HTTP-only checks that watch the whole database: alone, after the others.
    { name: "access", testMatch: /route-variants/, dependencies: ["js", "nojs"] },
  ],
  webServer: [
    {
      command: `node scripts/local-beacon.mjs --port ${beaconPort}`,
      url: `http://127.0.0.1:${beaconPort}/${beacon.BEACON_CHAIN_HASH}/info`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `node_modules/.bin/tsx tests/e2e/prepare-db.ts && node server.js`,
      url: `${baseURL}/login`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(port),
        HOST: "127.0.0.1",
        BUILD_DIR: buildDir,
        DATA_DIR: dataDir,
        DATABASE_URL: `file:${dataDir}/app.sqlite`,
        SESSION_SECRET: "e2e-secret",
        COOKIE_SECURE: "false",
        RATE_LIMIT_FACTOR: "50",
        NODE_ENV: "production",
        E2E_PREPARE: "1",
        // No scheduled integrity recompute: the tests' staff register purchases seconds apart, which the
        // desk flags by design (many by one user within minutes) and whose coupons it would then hold.
        // The desk's own tests raise their flags through the demo data and the models.
        INTEGRITY_EVERY_MINUTES: "0",
        ...beacon,
      },
    },
  ],
});
