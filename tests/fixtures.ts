/** Small builders for tests: rows inserted through the real schema. */
import { db, schema } from "@db/index";
import { createUser, roleBySlug } from "~/models/user.server";
import { createAllocation } from "~/models/allocation.server";
import { SYSTEM_ACTOR } from "~/models/scope.server";
import { allocationSchema } from "~/schemas/allocation";
import { randomSlug } from "~/utils/crypto.server";

let n = 0;
const uniq = () => `${Date.now().toString(36)}${(n++).toString(36)}`;

export function makeBranch(over: Partial<typeof schema.branches.$inferInsert> = {}) {
  return db
    .insert(schema.branches)
    .values({
      slug: randomSlug(),
      title: `Branch ${uniq()}`,
      state: "Bagmati",
      district: "Kathmandu",
      city: "Kathmandu",
      phone: "01-4444444/01-5555555",
      ...over,
    })
    .returning()
    .get();
}

export function makeBikeModel(title = `Model ${uniq()}`) {
  return db.insert(schema.bikeModels).values({ slug: randomSlug(), title }).returning().get();
}

export async function makeUser(role: "super-admin" | "branch-manager" | "branch-staff", branchId: number | null) {
  const r = roleBySlug(role)!;
  const email = `${role}-${uniq()}@example.test`;
  const user = await createUser({
    first_name: role,
    email,
    role_id: r.id,
    branch_id: branchId,
    password: "secret-pass-1",
  });
  return { ...user, password: "secret-pass-1" };
}

/** Valid, distinct Nepali mobile numbers (98XXXXXXXX); each test file has a database of its own. */
let phone = 9860000000;
export const nextPhone = () => String(phone++);

export function makePreregistration(over: Partial<typeof schema.preregistrations.$inferInsert> = {}) {
  return db
    .insert(schema.preregistrations)
    .values({
      slug: randomSlug(),
      name: "Test Person",
      address: "Kathmandu",
      phone: nextPhone(),
      citizenship_no: String(phone - 7_000_000_000),
      ...over,
    })
    .returning()
    .get();
}

/** A prize pool made as head office would make it (parsed by the form's schema); throws when invalid. */
export function makeAllocation(values: Record<string, unknown>) {
  const result = createAllocation(SYSTEM_ACTOR, allocationSchema.parse(values));
  if (!result.ok) throw new Error(`makeAllocation: ${result.message}`);
  return result.allocation;
}
