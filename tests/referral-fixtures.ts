/** Builders for the broadcast and referrer tests: live registrations and test rides through the real schema. */
import { db, schema } from "@db/index";
import { randomSlug } from "~/utils/crypto.server";
import { makeBikeModel, makePreregistration, nextPhone } from "./fixtures";

let seq = 0;
let model: number | null = null;

/** A live registration (with its verified, purchased pre-registration) at a branch. */
export function makeRegistration(branchId: number, over: Partial<typeof schema.registrations.$inferInsert> = {}) {
  model ??= makeBikeModel().id;
  const phone = over.phone ?? nextPhone();
  const pre = makePreregistration({
    phone,
    is_verified: true,
    purchased: true,
    status: "purchased",
    branch_id: branchId,
  });
  seq++;
  const tag = randomSlug().slice(0, 8);
  return db
    .insert(schema.registrations)
    .values({
      slug: randomSlug(),
      bill_no: `B${branchId}-${seq}-${tag}`,
      name: `Customer ${seq} ${tag}`,
      address: "Kathmandu",
      citizenship_no: `C${seq}`,
      phone,
      bike_model_id: model,
      engine_no: `EN${seq}-${tag}`,
      chasis_no: `CH${seq}-${tag}`,
      registration_no: `RN${seq}-${tag}`,
      branch_id: branchId,
      preregistration_id: pre.id,
      purchase_date: "2026-01-01",
      coupon_code: `TH-${tag}`,
      ...over,
    })
    .returning()
    .get();
}

/** A test ride at a branch, optionally referred by a registration. */
export function makeTestRide(branchId: number, over: Partial<typeof schema.testRides.$inferInsert> = {}) {
  model ??= makeBikeModel().id;
  return db
    .insert(schema.testRides)
    .values({
      slug: randomSlug(),
      first_name: "Rider",
      name: "Rider",
      phone: nextPhone(),
      bike_model_id: model,
      branch_id: branchId,
      state: "Bagmati",
      district: "Kathmandu",
      city: "Kathmandu",
      ...over,
    })
    .returning()
    .get();
}
