/**
 * Demo staff (development and tests only): two demo roles beyond the seeded
 * three, and several users per branch and role, made through the users
 * area's own model functions, so the Users list, its filters and the role
 * matrix have something to show. Every demo account's password is the demo
 * password. `branchadmin@demo.test` is a Branch Admin at the first branch
 * (Kathmandu Central): a branch user who manages its branch's users.
 */
import type { schema } from "./index";
import { createRole } from "~/models/role.server";
import { SYSTEM_ACTOR } from "~/models/scope.server";
import { roleBySlug } from "~/models/user.server";
import { addUser } from "~/models/dealer-user.server";
import { userCreateSchema } from "~/schemas/user";
import type { Permission } from "~/utils/permissions";

type Branch = typeof schema.branches.$inferSelect;

export const BRANCH_ADMIN_EMAIL = "branchadmin@demo.test";

const DEMO_ROLES: { title: string; permissions: Permission[] }[] = [
  {
    title: "Branch Admin",
    permissions: [
      "read-user",
      "create-user",
      "update-user",
      "create-preregistration",
      "read-registration",
      "create-registration",
      "update-registration",
      "delete-registration",
    ],
  },
  {
    title: "Marketing",
    permissions: [
      "read-branch",
      "read-bike-model",
      "create-bike-model",
      "update-bike-model",
      "read-video",
      "create-video",
      "update-video",
      "send-sms",
      "update-settings",
    ],
  },
];

const FIRST = ["Aarati", "Bikash", "Chetana", "Dinesh", "Elina", "Ganesh", "Hema", "Ishwor", "Janaki", "Kiran"];
const LAST = ["Shrestha", "Gurung", "Tamang", "Rai", "Karki", "Thapa", "Magar", "Joshi", "Pradhan", "Bhattarai"];

export async function seedStaff(branches: Branch[], password: string) {
  const roleId: Record<string, number> = {};
  for (const role of DEMO_ROLES) {
    const made = createRole(SYSTEM_ACTOR, role);
    if (!made.ok) throw new Error(`seed: ${made.message}`);
    roleId[role.title] = made.role.id;
  }
  roleId["Super Admin"] = roleBySlug("super-admin")!.id;
  roleId["Branch Manager"] = roleBySlug("branch-manager")!.id;
  roleId["Branch Staff"] = roleBySlug("branch-staff")!.id;

  let n = 0;
  const add = async (role: string, branch: Branch | null, email?: string) => {
    // Every pair of first and last name differs for the first hundred users.
    const first = FIRST[n % FIRST.length];
    const last = LAST[(n + 3 * Math.floor(n / FIRST.length)) % LAST.length];
    n++;
    const result = await addUser(
      SYSTEM_ACTOR,
      userCreateSchema.parse({
        branch_id: branch?.id,
        first_name: first,
        last_name: last,
        email: email ?? `${first}.${last}${n}@demo.test`.toLowerCase(),
        phone: `9812${String(300000 + n).padStart(6, "0")}`,
        sex: n % 3 === 1 ? "FEMALE" : "MALE",
        address: branch ? `${branch.city}, ${branch.district}` : "Head Office, Kathmandu",
        role_id: roleId[role],
        password,
        password_confirmation: password,
      }),
    );
    if (!result.ok) throw new Error(`seed: ${JSON.stringify(result.errors)}`);
  };

  await add("Super Admin", null);
  await add("Marketing", null);
  await add("Marketing", null);
  for (const [i, branch] of branches.entries()) {
    await add("Branch Admin", branch, i === 0 ? BRANCH_ADMIN_EMAIL : undefined);
    await add("Branch Manager", branch);
    await add("Branch Staff", branch);
    await add("Branch Staff", branch);
  }
}
