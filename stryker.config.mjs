// Mutation testing on the modules that hold the campaign's rules: `npm run mutate` (all of them), or
// `npm run mutate -- --mutate app/utils/rate-limit.server.ts` (one). Slow (minutes per module on two
// cores), so not in CI; docs/mutation-testing.md keeps the scores and the mutants known to be equivalent.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  testRunner: "vitest",
  vitest: { configFile: "vitest.config.ts", related: true },
  coverageAnalysis: "perTest",
  concurrency: 1,
  timeoutMS: 60_000,
  mutate: [
    "app/models/prize-draw.server.ts", // the draw
    "app/models/scope.server.ts", // branch scope
    "app/utils/permissions.ts", // permissions
    "app/models/otp.server.ts", // one-time codes
    "app/utils/rate-limit.server.ts", // rate limits
    "app/utils/body.server.ts", // the body reader and the update merge
  ],
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  thresholds: { high: 90, low: 85, break: null },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
export default config;
