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
    "tests/unit/draw-rules.test.ts",
    "tests/unit/fair-draw-rules.test.ts",
    "app/models/prize-draw.test.ts",
    "app/models/allocation.test.ts",
    "tests/unit/draw-statistics.test.ts",
    "tests/unit/fair-draws-secrecy.test.ts",
    "tests/unit/api-allocation.test.ts",
    "tests/unit/branch-owned.test.ts",
  ],
  "fair-draw": [
    "tests/unit/fair-draw-rules.test.ts",
    "tests/unit/fair-draws.test.ts",
    "tests/unit/fair-draws-secrecy.test.ts",
    "app/models/prize-draw.test.ts",
  ],
  scope: [
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
    "tests/unit/system-actor.test.ts",
    "app/models/preregistration-admin.test.ts",
    "app/models/registration-audit.test.ts",
    "app/models/back-office-audit.test.ts",
    "app/models/broadcast.test.ts",
    "app/models/sms.test.ts",
    "app/models/analytics.test.ts",
  ],
  permissions: [
    "tests/unit/permission-rules.test.ts",
    "tests/unit/permission-labels.test.ts",
    "tests/unit/route-table.test.ts",
    "tests/unit/spec-route-table.test.ts",
    "tests/unit/spec-fields.test.ts",
    "tests/unit/branch-owned.test.ts",
  ],
  otp: [
    "app/models/otp.test.ts",
    "app/models/registration.test.ts",
    "tests/unit/otp-rules.test.ts",
    "tests/unit/counter-grant.test.ts",
    "tests/unit/api-counter.test.ts",
  ],
  "rate-limit": [
    "tests/unit/rate-limit-windows.test.ts",
    "tests/unit/limits.test.ts",
    "tests/unit/bot-limits.test.ts",
    "tests/unit/api-auth.test.ts",
    "tests/unit/api-public.test.ts",
    "tests/unit/reset-password.test.ts",
  ],
  // the body reader and the update merge
  body: [
    "tests/unit/body-reader.test.ts",
    "tests/unit/security.test.ts",
    "tests/unit/partial-update.test.ts",
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
