import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: { "~": path.resolve(__dirname, "app"), "@db": path.resolve(__dirname, "db") },
  },
  test: {
    include: ["app/**/*.test.ts", "app/**/*.test.tsx", "db/**/*.test.ts", "tests/unit/**/*.test.ts"],
    globalSetup: ["tests/setup/global-setup.ts"],
    setupFiles: ["tests/setup/per-file.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
