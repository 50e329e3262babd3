import path from "node:path";
import { defineConfig } from "vitest/config";
import { publicScripts } from "./scripts/public-scripts-plugin";

const alias = { "~": path.resolve(__dirname, "app"), "@db": path.resolve(__dirname, "db") };

export default defineConfig({
  resolve: { alias },
  // The public page scripts are built as in the app (route modules import them as code).
  plugins: [publicScripts({ alias })],
  test: {
    include: ["app/**/*.test.ts", "app/**/*.test.tsx", "db/**/*.test.ts", "tests/integration/**/*.test.ts"],
    globalSetup: ["tests/setup/global-setup.ts"],
    setupFiles: ["tests/setup/per-file.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
