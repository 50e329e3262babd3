/**
 * Permission names (spec 001 §6 and spec 000 §6) and the route/permission table
 * (spec 001 §2.1, spec 000 §2) encoded once, as data. Used by the admin guard,
 * the sidebar, the Guard component and the tests that walk the table.
 */
export const PERMISSIONS = [
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
  // Beyond the specification: the integrity desk (docs/decisions/0021-integrity-desk.md).
  "review-integrity",
] as const;

export type Permission = (typeof PERMISSIONS)[number];

/** A requirement beyond one permission: holding every permission (the audit trail, the role matrix). */
export const EVERY_PERMISSION = "every-permission" as const;

/** What a route or a link requires: one permission, every permission, or null for login only. */
export type Requirement = Permission | typeof EVERY_PERMISSION | null;

/**
 * What staff read for each permission (the role matrix, the new-role form, the audit trail, messages):
 * never its code. The back office is English only.
 */
export const PERMISSION_LABELS: Record<Permission, string> = {
  "read-user": "View users",
  "create-user": "Create users",
  "update-user": "Edit users",
  "read-branch": "View branches",
  "create-branch": "Create branches",
  "update-branch": "Edit branches",
  "read-registration": "View registrations",
  "create-registration": "Create registrations",
  "update-registration": "Edit registrations",
  "delete-registration": "Delete registrations",
  "create-preregistration": "Create pre-registrations",
  "read-bike-model": "View bike models",
  "create-bike-model": "Create bike models",
  "update-bike-model": "Edit bike models",
  "read-video": "View videos",
  "create-video": "Create videos",
  "update-video": "Edit videos",
  "send-sms": "Send SMS and view analytics",
  "manage-allocation": "Manage schemes",
  "update-settings": "Change settings",
  "review-integrity": "Review integrity flags (head office)",
};

/** A permission's label; a name that is not a permission is shown as it is. */
export const permissionLabel = (name: string): string =>
  Object.hasOwn(PERMISSION_LABELS, name) ? PERMISSION_LABELS[name as Permission] : name;

/** What a permission lets staff do, as the refusal says it: "You do not have permission to open Schemes." */
export const PERMISSION_PURPOSE: Record<Permission, string> = {
  "read-user": "open Users",
  "create-user": "create users",
  "update-user": "edit users",
  "read-branch": "open Branches",
  "create-branch": "create branches",
  "update-branch": "edit branches",
  "read-registration": "open Registrations",
  "create-registration": "create registrations",
  "update-registration": "edit registrations",
  "delete-registration": "delete registrations",
  "create-preregistration": "create pre-registrations",
  "read-bike-model": "open Bike Models",
  "create-bike-model": "create bike models",
  "update-bike-model": "edit bike models",
  "read-video": "open Videos",
  "create-video": "create videos",
  "update-video": "edit videos",
  "send-sms": "open SMS and Analytics",
  "manage-allocation": "open Schemes",
  "update-settings": "change Settings",
  "review-integrity": "open the Integrity desk",
};

export const permissionRefusal = (requirement: Permission | typeof EVERY_PERMISSION) =>
  requirement === EVERY_PERMISSION
    ? "You do not have permission to open this page: it needs every permission."
    : `You do not have permission to ${PERMISSION_PURPOSE[requirement]}.`;

/** null = login only. */
/**
 * A back-office page: its pattern and permission and, for a page the sidebar
 * links to, its link (`nav`): the label, its place in the sidebar and, where
 * the link is guarded otherwise than the page, the link's own permission.
 */
export type RouteRule = {
  pattern: string;
  permission: Requirement;
  nav?: {
    label: string;
    order: number;
    permission?: Requirement;
    /** The link under another name for those without its permission (the page itself is theirs too). */
    otherwise?: string;
  };
};

/**
 * The specification's back-office route table (spec 001 §2.1, spec 000 §2).
 * It is the contract the route modules are checked against: each module
 * declares its own permission (`export const handle`), and
 * tests/integration/route-table.test.ts fails when a module's declaration and this
 * table differ, or when a module declares nothing. The URL is never matched
 * against this table at run time.
 */
export const ADMIN_ROUTES: RouteRule[] = [
  // The dashboard is login only; its sidebar link is guarded by send-sms (spec 001 §2.1). Everyone lands on
  // it, so those without send-sms have it in the sidebar as Home.
  {
    pattern: "/admin",
    permission: null,
    nav: { label: "Dashboard", order: 1, permission: "send-sms", otherwise: "Home" },
  },
  { pattern: "/admin/preregistration", permission: "read-registration", nav: { label: "Pre-Registrations", order: 2 } },
  { pattern: "/admin/preregistration/create", permission: "create-registration" },
  { pattern: "/admin/preregistration/grants", permission: "read-registration" },
  { pattern: "/admin/preregistration/:slug", permission: "read-registration" },
  { pattern: "/admin/preregistration/:slug/edit", permission: "update-registration" },
  { pattern: "/admin/preregistration/:slug/verify", permission: "read-registration" },
  { pattern: "/admin/preregistration/:slug/draw", permission: "read-registration" },
  { pattern: "/admin/registration", permission: "read-registration", nav: { label: "Registrations", order: 3 } },
  {
    pattern: "/admin/registration/deleted",
    permission: "delete-registration",
    nav: { label: "Deleted Registrations", order: 4 },
  },
  { pattern: "/admin/registration/create/:slug", permission: "create-registration" },
  { pattern: "/admin/registration/:slug", permission: "read-registration" },
  { pattern: "/admin/registration/:slug/edit", permission: "read-registration" },
  { pattern: "/admin/registration/:slug/verify", permission: "read-registration" },
  { pattern: "/admin/registration/:slug/draw", permission: "create-registration" },
  { pattern: "/admin/print", permission: "read-registration" },
  { pattern: "/admin/user", permission: "read-user", nav: { label: "Users", order: 10 } },
  { pattern: "/admin/user/create", permission: "create-user" },
  { pattern: "/admin/user/:slug", permission: "read-user" },
  { pattern: "/admin/user/:slug/edit", permission: "update-user" },
  { pattern: "/admin/branch", permission: "read-branch", nav: { label: "Branches", order: 8 } },
  { pattern: "/admin/branch/create", permission: "create-branch" },
  { pattern: "/admin/branch/:slug", permission: "read-branch" },
  { pattern: "/admin/branch/:slug/edit", permission: "update-branch" },
  { pattern: "/admin/bike-model", permission: "read-bike-model", nav: { label: "Bike Models", order: 9 } },
  { pattern: "/admin/bike-model/create", permission: "create-bike-model" },
  { pattern: "/admin/bike-model/:slug", permission: "read-bike-model" },
  { pattern: "/admin/bike-model/:slug/edit", permission: "update-bike-model" },
  { pattern: "/admin/video", permission: "read-video", nav: { label: "Videos", order: 11 } },
  { pattern: "/admin/video/create", permission: "create-video" },
  { pattern: "/admin/video/:id", permission: "read-video" },
  { pattern: "/admin/video/:id/edit", permission: "update-video" },
  { pattern: "/admin/scheme", permission: "manage-allocation", nav: { label: "Schemes", order: 7 } },
  { pattern: "/admin/scheme/create", permission: "manage-allocation" },
  { pattern: "/admin/scheme/draws", permission: "manage-allocation" },
  { pattern: "/admin/scheme/settings", permission: "manage-allocation" },
  { pattern: "/admin/scheme/:id", permission: "manage-allocation" },
  { pattern: "/admin/sms", permission: "send-sms", nav: { label: "SMS", order: 12 } },
  { pattern: "/admin/sms/:id", permission: "send-sms" },
  { pattern: "/admin/analytics", permission: "send-sms", nav: { label: "Analytics", order: 14 } },
  { pattern: "/admin/outbox", permission: "send-sms", nav: { label: "SMS Outbox", order: 13 } },
  { pattern: "/admin/test-ride", permission: null, nav: { label: "Test Rides", order: 5 } },
  { pattern: "/admin/test-ride/:slug", permission: null },
  { pattern: "/admin/profile", permission: null },
  {
    pattern: "/admin/settings",
    permission: null,
    nav: { label: "Settings", order: 15, permission: "update-settings" },
  },
  // The referrer report (spec 001 §2.12 does not name its route).
  { pattern: "/admin/referrer", permission: "read-registration", nav: { label: "Referrers", order: 6 } },
  // Beyond the specification's table:
  { pattern: "/admin/audit", permission: EVERY_PERMISSION, nav: { label: "Audit Trail", order: 17 } },
  { pattern: "/admin/role", permission: EVERY_PERMISSION, nav: { label: "Roles", order: 16 } },
  // The integrity desk (decision 21): head office only, whatever a branch user's role holds.
  { pattern: "/admin/integrity", permission: "review-integrity", nav: { label: "Integrity", order: 18 } },
  { pattern: "/admin/integrity/:id", permission: "review-integrity" },
];

/** The sidebar's links, in order, read from the route table: one declaration per page. */
export const SIDEBAR = ADMIN_ROUTES.flatMap((r) =>
  r.nav
    ? [
        {
          to: r.pattern,
          label: r.nav.label,
          order: r.nav.order,
          permission: r.nav.permission ?? r.permission,
          otherwise: r.nav.otherwise ?? null,
        },
      ]
    : [],
).sort((a, b) => a.order - b.order);

/** A holder of permissions; `branch_id` set: a branch user, who never holds a head-office permission. */
export type PermissionHolder = { permissions: readonly string[]; branch_id?: number | null } | null | undefined;

/**
 * Permissions that only head office exercises: a branch user whose role holds one does not hold it
 * (the integrity desk: branch users never see a flag, least of all one about themselves). Their models
 * refuse a branch scope too.
 */
export const HEAD_OFFICE_PERMISSIONS: readonly Permission[] = ["review-integrity"];

export function can(user: PermissionHolder, requirement: Requirement): boolean {
  if (!user) return false;
  if (requirement === null) return true;
  if (requirement === EVERY_PERMISSION) return PERMISSIONS.every((p) => can(user, p));
  if (HEAD_OFFICE_PERMISSIONS.includes(requirement) && user.branch_id != null) return false;
  return user.permissions.includes(requirement);
}

/**
 * Who may see one-time codes (beside a phone on the pre-registration and
 * registration screens, in the staff API, unmasked in the SMS outbox): the
 * spec names read-user (registration detail) and create-user (pre-registration
 * screens); both readings are honoured, everywhere, by this one capability.
 */
export function canSeeCodes(user: PermissionHolder): boolean {
  return can(user, "read-user") || can(user, "create-user");
}

/** Seeded roles; a migration inserts them so production always has them. */
export const SEEDED_ROLES: { slug: string; title: string; permissions: readonly Permission[] }[] = [
  { slug: "super-admin", title: "Super Admin", permissions: PERMISSIONS },
  {
    slug: "branch-manager",
    title: "Branch Manager",
    permissions: [
      "create-preregistration",
      "read-registration",
      "create-registration",
      "update-registration",
      "delete-registration",
    ],
  },
  {
    slug: "branch-staff",
    title: "Branch Staff",
    permissions: ["create-preregistration", "read-registration", "create-registration", "update-registration"],
  },
];
