// Mutation testing on the modules that hold the campaign's rules: `npm run mutate` (all of them), or
// `npm run mutate -- --mutate app/utils/rate-limit.server.ts` (one). Each mutant runs only the tests that
// reach its code, out of the test files vitest.mutate.config.ts lists. Slow (minutes per module on two
// cores), so not in CI; docs/mutation-testing.md keeps the scores and the mutants known to be equivalent.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutate.config.ts", related: true },
  coverageAnalysis: "perTest",
  concurrency: 1,
  timeoutMS: 60_000,
  mutate: [
    "app/models/prize-draw.server.ts", // the draw: pools, rolls, the weighted fallback, the transaction
    "app/models/fair-draw.server.ts", // the draw's chance: the day's seed, each roll's HMAC, the chain
    "scripts/fair-draws-core.mjs:9-43", // the record hashed, a roll's input, a hash as a number in [0, 1)
    "app/models/scope.server.ts", // branch scope
    "app/utils/permissions.ts", // permissions
    "app/models/otp.server.ts", // one-time codes
    "app/utils/rate-limit.server.ts", // rate limits
    "app/http/body.server.ts", // the body reader and the update merge
  ],
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  thresholds: { high: 90, low: 85, break: null },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
export default config;
