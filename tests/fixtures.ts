/**
 * Small builders for tests, vitest's and the end-to-end tests' (tests/e2e/data.ts): rows made through
 * the models where a model makes them, else inserted through the real schema.
 */
import { and, asc, eq } from "drizzle-orm";
import { db, schema } from "@db/index";
import type { CodePurpose } from "~/models/otp.server";
import type { SendSmsInput } from "~/models/sms.server";
import { sendSms } from "~/models/sms-delivery.server";
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

/** Records that a prize pool has paid out `paid` of its prizes (as draws would have). */
export function setPaid(allocationId: number, paid: number) {
  db.update(schema.allocations).set({ paid }).where(eq(schema.allocations.id, allocationId)).run();
}

/** A draw as the draw audit lists it (outside the day's chain, which the fair-draw tests build by drawing). */
export function makeDraw(values: typeof schema.draws.$inferInsert) {
  return db.insert(schema.draws).values(values).returning().get();
}

/** A test ride booked at a branch (in its province, district and city) for the first bike model. */
export function makeTestRide(branchId: number, over: Partial<typeof schema.testRides.$inferInsert> = {}) {
  const branch = db.select().from(schema.branches).where(eq(schema.branches.id, branchId)).get();
  const model = db.select().from(schema.bikeModels).orderBy(asc(schema.bikeModels.id)).limit(1).get();
  if (!branch || !model) throw new Error(`makeTestRide: no branch ${branchId} or no bike model`);
  return db
    .insert(schema.testRides)
    .values({
      slug: randomSlug(),
      first_name: over.name ?? "Test",
      name: "Test Rider",
      phone: "9841999999",
      bike_model_id: model.id,
      branch_id: branch.id,
      state: branch.state,
      district: branch.district,
      city: branch.city,
      ...over,
    })
    .returning()
    .get();
}

/** A message the gateway refused for good (a bad number): sent through `sendSms`, so stored as the outbox keeps it. */
export function refusedSms(input: SendSmsInput, error = "SMS gateway: invalid receiver (mobile number) (code 1007)") {
  return sendSms(input, { name: "outbox", send: async () => ({ ok: false, reply: "", error, permanent: true }) });
}

/** A message the gateway gave up on after it was sent (the worker's last try failed). */
export function failSms(id: number, error: string) {
  db.update(schema.smsMessages).set({ status: "failed", error }).where(eq(schema.smsMessages.id, id)).run();
}

/** Dates the codes of one purpose (sent to a phone, or for an entry) as sent `ms` ago. */
export function ageCodes(purpose: CodePurpose, who: { phone: string } | { subjectId: number }, ms: number) {
  const codes = schema.oneTimeCodes;
  db.update(codes)
    .set({ created_at: new Date(Date.now() - ms).toISOString() })
    .where(
      and(
        eq(codes.purpose, purpose),
        "phone" in who ? eq(codes.phone, who.phone) : eq(codes.subject_id, who.subjectId),
      ),
    )
    .run();
}
