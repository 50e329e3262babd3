// The unit tests `npm run mutate` runs against each mutant (stryker.config.mjs): vitest.config.ts (its
// aliases, plugins and per-file SQLite copies) with only the test files that exercise the mutated modules.
// MUTATE_GROUP=<name> narrows them to one module's tests (a static mutant, one in a module-level table,
// runs every test of the set, so a narrow set makes it minutes instead of hours). Tests that run the code in
// other processes or worker threads (they never see a mutant) and the load tests are left out.
import { defineConfig } from "vitest/config";
import base from "./vitest.config";

export const MUTATE_GROUPS: Record<string, string[]> = {
  // the draw, its pools and its day's seeded chance
  "prize-draw": [
    "tests/integration/draw-rules.test.ts",
    "tests/integration/fair-draw-rules.test.ts",
    "app/models/prize-draw.test.ts",
    "app/models/allocation.test.ts",
    "tests/integration/draw-statistics.test.ts",
    "tests/integration/fair-draws-secrecy.test.ts",
    "tests/integration/api-allocation.test.ts",
    "tests/integration/branch-owned.test.ts",
  ],
  "fair-draw": [
    "tests/integration/fair-draw-rules.test.ts",
    "tests/integration/fair-draws.test.ts",
    "tests/integration/fair-draws-secrecy.test.ts",
    "app/models/prize-draw.test.ts",
  ],
  scope: [
    "tests/integration/branch-scope.test.ts",
    "tests/integration/outbox-scope.test.ts",
    "tests/integration/users.test.ts",
    "tests/integration/user-routes.test.ts",
    "tests/integration/api-user.test.ts",
    "tests/integration/settings.test.ts",
    "tests/integration/deleted-phone.test.ts",
    "tests/integration/catalogue-public.test.ts",
    "tests/integration/row-count.test.ts",
    "tests/integration/list-search-index.test.ts",
    "tests/integration/system-actor.test.ts",
    "app/models/preregistration-admin.test.ts",
    "app/models/registration-audit.test.ts",
    "app/models/back-office-audit.test.ts",
    "app/models/broadcast.test.ts",
    "app/models/sms.test.ts",
    "app/models/analytics.test.ts",
  ],
  permissions: [
    "tests/integration/permission-rules.test.ts",
    "tests/integration/permission-labels.test.ts",
    "tests/integration/route-table.test.ts",
    "tests/integration/spec-route-table.test.ts",
    "tests/integration/spec-fields.test.ts",
    "tests/integration/branch-owned.test.ts",
  ],
  otp: [
    "app/models/otp.test.ts",
    "app/models/registration.test.ts",
    "tests/integration/otp-rules.test.ts",
    "tests/integration/counter-grant.test.ts",
    "tests/integration/api-counter.test.ts",
  ],
  "rate-limit": [
    "tests/integration/rate-limit-windows.test.ts",
    "tests/integration/limits.test.ts",
    "tests/integration/bot-limits.test.ts",
    "tests/integration/api-auth.test.ts",
    "tests/integration/api-public.test.ts",
    "tests/integration/reset-password.test.ts",
  ],
  // the body reader and the update merge
  body: [
    "tests/integration/body-reader.test.ts",
    "tests/integration/security.test.ts",
    "tests/integration/partial-update.test.ts",
    "app/models/preregistration.test.ts",
    "app/models/test-ride-booking.test.ts",
  ],
};

const group = process.env.MUTATE_GROUP;
if (group && !MUTATE_GROUPS[group]) throw new Error(`MUTATE_GROUP must be one of ${Object.keys(MUTATE_GROUPS)}`);

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: group ? MUTATE_GROUPS[group] : [...new Set(Object.values(MUTATE_GROUPS).flat())],
  },
});
