// The back-office route and permission table, written from the specification and the decisions,
// never from the product's modules: spec 001 §2.1 and §6, spec 000 "Admin routes of this document",
// ../shared/DECISIONS.md "Staff, roles and sessions", and docs/decisions/0009 for the screens beyond
// the specification. tests/integration/spec-route-table.test.ts holds the product against it. A permission
// changed in the product and not here fails that test; change this file only when the contract changes.

/** null: login only. "every": a user holding every permission (head office's Super Admin). */
export type SpecPermission = string | null | "every";

export const SPEC_ADMIN_ROUTES: readonly { pattern: string; permission: SpecPermission; source: string }[] = [
  { pattern: "/admin", permission: null, source: "001 §2.1 dashboard, login only" },
  // Spec 000, admin routes.
  { pattern: "/admin/preregistration", permission: "read-registration", source: "000" },
  { pattern: "/admin/preregistration/create", permission: "create-registration", source: "000" },
  { pattern: "/admin/preregistration/:slug", permission: "read-registration", source: "000" },
  { pattern: "/admin/preregistration/:slug/edit", permission: "update-registration", source: "000" },
  { pattern: "/admin/preregistration/:slug/verify", permission: "read-registration", source: "000" },
  { pattern: "/admin/preregistration/:slug/draw", permission: "read-registration", source: "000" },
  { pattern: "/admin/registration", permission: "read-registration", source: "000" },
  { pattern: "/admin/registration/create/:slug", permission: "create-registration", source: "000" },
  { pattern: "/admin/registration/:slug", permission: "read-registration", source: "000" },
  { pattern: "/admin/registration/:slug/edit", permission: "read-registration", source: "000 (per route table)" },
  { pattern: "/admin/registration/:slug/verify", permission: "read-registration", source: "000" },
  { pattern: "/admin/registration/:slug/draw", permission: "create-registration", source: "000" },
  { pattern: "/admin/registration/deleted", permission: "delete-registration", source: "000 trash list" },
  { pattern: "/admin/print", permission: "read-registration", source: "000 and 001 §2.1" },
  // Spec 001 §2.1.
  { pattern: "/admin/user", permission: "read-user", source: "001 §2.1" },
  { pattern: "/admin/user/create", permission: "create-user", source: "001 §2.1" },
  { pattern: "/admin/user/:slug", permission: "read-user", source: "001 §2.1" },
  { pattern: "/admin/user/:slug/edit", permission: "update-user", source: "001 §2.1" },
  { pattern: "/admin/branch", permission: "read-branch", source: "001 §2.1" },
  { pattern: "/admin/branch/create", permission: "create-branch", source: "001 §2.1" },
  { pattern: "/admin/branch/:slug", permission: "read-branch", source: "001 §2.1" },
  { pattern: "/admin/branch/:slug/edit", permission: "update-branch", source: "001 §2.1" },
  { pattern: "/admin/bike-model", permission: "read-bike-model", source: "001 §2.1" },
  { pattern: "/admin/bike-model/create", permission: "create-bike-model", source: "001 §2.1" },
  { pattern: "/admin/bike-model/:slug", permission: "read-bike-model", source: "001 §2.1" },
  { pattern: "/admin/bike-model/:slug/edit", permission: "update-bike-model", source: "001 §2.1" },
  { pattern: "/admin/video", permission: "read-video", source: "001 §2.1" },
  { pattern: "/admin/video/create", permission: "create-video", source: "001 §2.1" },
  { pattern: "/admin/video/:id", permission: "read-video", source: "001 §2.1" },
  { pattern: "/admin/video/:id/edit", permission: "update-video", source: "001 §2.1" },
  { pattern: "/admin/scheme", permission: "manage-allocation", source: "001 §2.1" },
  { pattern: "/admin/scheme/create", permission: "manage-allocation", source: "001 §2.1" },
  { pattern: "/admin/sms", permission: "send-sms", source: "001 §2.1" },
  { pattern: "/admin/analytics", permission: "send-sms", source: "001 §2.1" },
  { pattern: "/admin/test-ride", permission: null, source: "001 §2.1 login only" },
  { pattern: "/admin/test-ride/:slug", permission: null, source: "001 §2.1 login only" },
  { pattern: "/admin/profile", permission: null, source: "001 §2.1 login only" },
  { pattern: "/admin/settings", permission: null, source: "001 §2.1 login only (its link needs update-settings)" },
  // Beyond the specification: docs/decisions/0009 (and 0006, 0008, 0012, 0016 for each screen).
  { pattern: "/admin/scheme/:id", permission: "manage-allocation", source: "0009 under Schemes" },
  { pattern: "/admin/scheme/draws", permission: "manage-allocation", source: "0006, 0009 draw audit under Schemes" },
  { pattern: "/admin/scheme/settings", permission: "manage-allocation", source: "0009 fallback tables under Schemes" },
  { pattern: "/admin/sms/:id", permission: "send-sms", source: "0009, 0016 a broadcast's page" },
  { pattern: "/admin/outbox", permission: "send-sms", source: "0009 the SMS outbox" },
  { pattern: "/admin/referrer", permission: "read-registration", source: "0009, 0016 the referrer report" },
  { pattern: "/admin/preregistration/grants", permission: "read-registration", source: "0005, 0009 counter grants" },
  { pattern: "/admin/audit", permission: "every", source: "0009 the audit trail" },
  { pattern: "/admin/role", permission: "every", source: "0009, 0012 the role matrix" },
  { pattern: "/admin/integrity", permission: "review-integrity", source: "0021 the integrity desk" },
  { pattern: "/admin/integrity/:id", permission: "review-integrity", source: "0021 a flag and its evidence" },
];

/**
 * The actions on a page that need more than the page's permission, by the page's pattern and the
 * action's intent. Spec 000 "Permissions affecting this document": delete-registration for the Delete
 * button (and restoring from the deleted list); create-registration for the counter's Notify (000
 * "POST /api/v1/registration/{slug}/notify" is the counter's). Spec 001 has no delete permission of
 * its own for users, branches, bike models and videos: docs/api.md gives their deletes (and a branch's
 * close and reopen, a model's retire and restore) the update permission, as their API calls have.
 */
export const SPEC_INTENT_PERMISSIONS: Record<string, Record<string, string>> = {
  "/admin/preregistration/:slug": { delete: "delete-registration" },
  "/admin/registration/:slug": {
    delete: "delete-registration",
    restore: "delete-registration",
    notify: "create-registration",
  },
  "/admin/user/:slug": { delete: "update-user" },
  "/admin/branch/:slug": { delete: "update-branch", close: "update-branch", reopen: "update-branch" },
  "/admin/bike-model/:slug": { delete: "update-bike-model", retire: "update-bike-model", restore: "update-bike-model" },
  "/admin/video/:id": { delete: "update-video" },
  // Decision 19: the fair draws' observers, named by head office on the scheme settings page.
  "/admin/scheme/settings": { observers: "update-settings" },
};

/**
 * The seeded roles and what each holds (DECISIONS.md "Staff, roles and sessions": Super Admin holds
 * every permission; Branch Manager and Branch Staff do their branch's registration work, the manager
 * also deleting). create-preregistration is spec 000's Create button permission.
 */
export const SPEC_SEEDED_ROLES: Record<string, "every" | readonly string[]> = {
  "super-admin": "every",
  "branch-manager": [
    "create-preregistration",
    "read-registration",
    "create-registration",
    "update-registration",
    "delete-registration",
  ],
  "branch-staff": ["create-preregistration", "read-registration", "create-registration", "update-registration"],
};

/**
 * The permissions of spec 001 §6, with spec 000's create-preregistration and the integrity desk's
 * review-integrity (decision 21: head office only, never held by a branch user).
 */
export const SPEC_PERMISSIONS = [
  "read-user",
  "create-user",
  "update-user",
  "read-branch",
  "create-branch",
  "update-branch",
  "read-registration",
  "create-registration",
  "update-registration",
  "delete-registration",
  "create-preregistration",
  "read-bike-model",
  "create-bike-model",
  "update-bike-model",
  "read-video",
  "create-video",
  "update-video",
  "send-sms",
  "manage-allocation",
  "update-settings",
  "review-integrity",
] as const;
