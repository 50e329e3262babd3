// The unit tests `npm run mutate` runs against each mutant (stryker.config.mjs): vitest.config.ts (its
// aliases, plugins and per-file SQLite copies) with only the test files that exercise the mutated modules.
// Tests that run the code in other processes or worker threads (they never see a mutant) and the load
// tests are left out.
import { defineConfig } from "vitest/config";
import base from "./vitest.config";

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      // the draw, its pools and its day's seeded chance
      "app/models/prize-draw.test.ts",
      "app/models/allocation.test.ts",
      "app/models/analytics.test.ts",
      "tests/unit/draw-statistics.test.ts",
      "tests/unit/fair-draws.test.ts",
      "tests/unit/fair-draws-secrecy.test.ts",
      "tests/unit/api-allocation.test.ts",
      "tests/unit/branch-owned.test.ts",
      // branch scope
      "tests/unit/branch-scope.test.ts",
      "tests/unit/outbox-scope.test.ts",
      "tests/unit/users.test.ts",
      "tests/unit/user-routes.test.ts",
      "tests/unit/api-user.test.ts",
      "tests/unit/settings.test.ts",
      "tests/unit/deleted-phone.test.ts",
      "tests/unit/catalogue-public.test.ts",
      "tests/unit/row-count.test.ts",
      "tests/unit/list-search-index.test.ts",
      "app/models/preregistration-admin.test.ts",
      "app/models/registration-audit.test.ts",
      "app/models/back-office-audit.test.ts",
      "app/models/broadcast.test.ts",
      "app/models/sms.test.ts",
      // permissions
      "tests/unit/permission-labels.test.ts",
      "tests/unit/route-table.test.ts",
      "tests/unit/spec-route-table.test.ts",
      "tests/unit/spec-fields.test.ts",
      "tests/unit/day-hour-filter.test.ts",
      // one-time codes
      "app/models/otp.test.ts",
      "app/models/registration.test.ts",
      "tests/unit/counter-grant.test.ts",
      "tests/unit/api-counter.test.ts",
      // rate limits
      "tests/unit/rate-limit-windows.test.ts",
      "tests/unit/limits.test.ts",
      "tests/unit/bot-limits.test.ts",
      "tests/unit/api-auth.test.ts",
      "tests/unit/api-public.test.ts",
      "tests/unit/reset-password.test.ts",
      // the body reader and the update merge
      "tests/unit/security.test.ts",
      "tests/unit/partial-update.test.ts",
      "app/models/preregistration.test.ts",
      "app/models/test-ride-booking.test.ts",
      // tests written for mutants that survived
      "tests/unit/otp-rules.test.ts",
      "tests/unit/system-actor.test.ts",
      "tests/unit/fair-draw-rules.test.ts",
      "tests/unit/body-reader.test.ts",
    ],
  },
});
