/**
 * Demo campaign records, made through the application's own model functions so
 * every screen has something to show: prize pools (allocations) for today,
 * pre-registrations at every stage (unverified, verified with their
 * second-thrill draw, purchased) made on the public site and at branch
 * counters, and registrations pending, confirmed and drawn (third thrill).
 * A few records are made "yesterday" (the clock is moved) so the dashboard's
 * changes against yesterday have figures.
 */
import { schema, getDb } from "./index";
import { createAllocation } from "~/models/allocation.server";
import { SYSTEM_ACTOR } from "~/models/scope.server";
import { allocationSchema, type AllocationFormInput } from "~/schemas/allocation";
import { currentCode } from "~/models/otp.server";
import { createPreregistration } from "~/models/preregistration.server";
import { verifyPreregistration } from "~/models/preregistration-verify.server";
import { counterPreregistrationSchema } from "~/schemas/preregistration";
import { confirmRegistration, createRegistration, drawCoupon } from "~/models/registration.server";
import { kathmanduToUtc, setClock } from "~/utils/time";

type Ctx = {
  branches: (typeof schema.branches.$inferSelect)[];
  models: (typeof schema.bikeModels.$inferSelect)[];
  today: string;
  yesterday: string;
};

const PEOPLE = [
  "Ram Bahadur Thapa",
  "Sita Kumari Shrestha",
  "Hari Prasad Koirala",
  "Gita Devi Poudel",
  "Krishna Maharjan",
  "Laxmi Tamang",
  "Bishnu Adhikari",
  "Sarita Bhandari",
  "Prakash Gautam",
  "Nirmala KC",
  "Suresh Magar",
  "Anita Rai",
  "Dipak Karki",
  "Kamala Gurung",
  "Rajesh Yadav",
  "Puja Sharma",
];

const SOURCES = ["NEWSPAPER", "SOCIAL MEDIA", "RADIO", "BRAND WEBSITE", "TEST RIDE", "EXISTING CUSTOMER"];

/** Stage each demo person reaches: 0 unverified, 1 verified, 2 registered (pending code), 3 confirmed, 4 drawn. */
const STAGES = [4, 4, 3, 2, 1, 1, 0, 4, 1, 0, 4, 2, 1, 0, 4, 1];

/** One pool, made as head office would make it. */
function pool(values: AllocationFormInput) {
  const result = createAllocation(SYSTEM_ACTOR, allocationSchema.parse(values));
  if (!result.ok) throw new Error(`seed: ${result.message}`);
}

/** Prize pools for a date: public and branch pre-registration pools and purchase coupon pools. */
function seedAllocations(ctx: Ctx, date: string) {
  pool({ type: "preregistration_public", date, amount: 50000, count: 1, probability: 2 });
  pool({ type: "preregistration_public", date, amount: 10000, count: 3, probability: 20 });
  for (const b of ctx.branches) {
    pool({ type: "preregistration_branch", branch_id: b.id, date, amount: 12000, count: 2, probability: 25 });
    pool({ type: "preregistration_branch", branch_id: b.id, date, amount: 8000, count: 5, probability: 40 });
    pool({ type: "registration_branch", branch_id: b.id, date, amount: 20000, count: 1, probability: 10 });
    pool({ type: "registration_branch", branch_id: b.id, date, amount: 5000, count: 3, probability: 50 });
    pool({ type: "registration_branch", branch_id: b.id, date, amount: 2000, count: 5, probability: 90 });
  }
}

async function verify(slug: string, id: number) {
  const code = currentCode("preregistration", id)?.code;
  if (!code) throw new Error(`No code for pre-registration ${slug}`);
  const res = await verifyPreregistration({ channel: "public", address: null }, slug, code);
  if (!res.ok) throw new Error(`Seed verification failed: ${res.message}`);
  await res.draw();
}

/** Yesterday's and today's pools: made before any draw, as a day's pools are fixed with its first draw. */
export function seedCampaignPools(ctx: Ctx) {
  seedAllocations(ctx, ctx.yesterday);
  seedAllocations(ctx, ctx.today);
}

export async function seedCampaign(ctx: Ctx) {
  const { branches, models, today, yesterday } = ctx;
  const db = getDb();
  const staff = db.select({ id: schema.users.id, branch_id: schema.users.branch_id }).from(schema.users).all();
  const actorFor = (branchId: number) => ({
    id: staff.find((u) => u.branch_id === branchId)?.id ?? staff[0].id,
    email: "seed",
    address: null,
    scope: { branchId },
  });

  for (const [i, name] of PEOPLE.entries()) {
    // The first five happened yesterday (Kathmandu), the rest today.
    const when = i < 5 ? `${yesterday}T1${i}:15` : `${today}T0${Math.min(9, i - 4)}:30`;
    const instant = new Date(kathmanduToUtc(when));
    const at = instant.getTime() > Date.now() ? new Date(Date.now() - (PEOPLE.length - i) * 60_000) : instant;
    setClock(() => at);
    try {
      const atBranch = i % 3 !== 2;
      const branch = branches[i % Math.min(3, branches.length)];
      const created = await createPreregistration(
        atBranch ? { channel: "counter", actor: actorFor(branch.id) } : { channel: "public", address: null },
        counterPreregistrationSchema.parse({
          name,
          address: `${branch.city} ${i + 1}`,
          email: `${name.split(" ")[0].toLowerCase()}${i}@mail.test`,
          phone: `98510000${String(10 + i)}`,
          citizenship_no: `${27010 + i}${1000 + i}`,
          shared: i % 3 === 0,
          bike_model_id: models[i % models.length].id,
          source: SOURCES[i % SOURCES.length],
          nearest_branch_id: branch.id,
          send_sms: true,
        }),
      );
      if (!created.ok) throw new Error(`Seed pre-registration failed: ${JSON.stringify(created.errors)}`);
      const pre = created.preregistration;
      const stage = STAGES[i % STAGES.length];
      if (stage < 1) continue;
      await verify(pre.slug, pre.id);
      if (stage < 2) continue;

      const actor = actorFor(branch.id);
      const reg = await createRegistration(actor, pre.slug, {
        bill_no: String(1001 + i),
        name,
        address: `${branch.city} ${i + 1}`,
        citizenship_no: `${27010 + i}${1000 + i}`,
        email: `${name.split(" ")[0].toLowerCase()}${i}@mail.test`,
        bike_model_id: models[i % models.length].id,
        engine_no: `EN${String(500100 + i)}`,
        chasis_no: `CH${String(800200 + i)}`,
        registration_no: `BA ${10 + i} PA ${4000 + i}`.replace(/\s+/g, "-"),
        payment_mode: (["CASH", "FINANCE", "CASH_EXCHANGE", "SELF_FINANCE"] as const)[i % 4],
        send_sms: true,
      });
      if (!reg.ok) throw new Error(`Seed registration failed: ${JSON.stringify(reg.errors)}`);
      if (stage < 3) continue;
      const code = currentCode("registration", reg.registration.id)?.code ?? "";
      const confirmed = confirmRegistration(actor, reg.registration.slug, code);
      if (!confirmed.ok) throw new Error(`Seed confirmation failed: ${confirmed.message}`);
      if (stage < 4) continue;
      const drawn = await drawCoupon(actor, reg.registration.slug);
      if (!drawn.ok) throw new Error(`Seed draw failed: ${drawn.message}`);
    } finally {
      setClock(null);
    }
  }
}
