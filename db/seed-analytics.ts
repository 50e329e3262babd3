/**
 * Demo history for the analytics page (development and tests only): twenty
 * Kathmandu days before yesterday, with a campaign that warms up, quieter
 * Saturdays, pre-registrations made at the counter and on the public site
 * from every source, verifications (some the next day, some just past
 * midnight), purchases a few days later, test rides, and each day's prize
 * pools. Rows are inserted as the application writes them; the prizes come
 * from the real draw (drawSecondThrill / drawThirdThrill at the moment of
 * the verification or the coupon draw), so pools pay out and fall back as
 * they would have. Deterministic: the same figures on every run (the draws'
 * cryptographic rolls aside). Yesterday and today stay as db/seed-campaign.ts
 * made them, so the dashboard's cards keep their story.
 */
import { eq } from "drizzle-orm";
import { getDb, schema } from "./index";
import { createAllocation } from "~/models/allocation.server";
import { drawSecondThrill, drawThirdThrill } from "~/models/prize-draw.server";
import { newCouponCode } from "~/models/registration.server";
import { SYSTEM_ACTOR } from "~/models/scope.server";
import { allocationSchema, type AllocationFormInput } from "~/schemas/allocation";
import { SOURCE_OPTIONS } from "~/schemas/preregistration";
import { PAYMENT_MODES } from "~/schemas/registration";
import { randomSlug } from "~/utils/crypto.server";
import { kathmanduDate, kathmanduToUtc, setClock, shiftDate } from "~/utils/time";

type Ctx = {
  branches: (typeof schema.branches.$inferSelect)[];
  models: (typeof schema.bikeModels.$inferSelect)[];
  /** Today's Kathmandu date. */
  today: string;
};

/** Days of history, ending the day before yesterday. */
export const HISTORY_DAYS = 20;

const FIRST = ["Aarati", "Bikram", "Chiranjibi", "Durga", "Ganga", "Himal", "Indira", "Jeevan", "Kabita", "Lok"];
const LAST = ["Acharya", "Basnet", "Chaudhary", "Dahal", "Ghimire", "Hamal", "Joshi", "Khadka", "Lama", "Pandey"];

/** Small deterministic generator (mulberry32), so the demo history is the same on every run. */
function generator(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    chance: (p: number) => next() < p,
    /** One of `items`, by weight. */
    pick: <T>(items: readonly T[], weights?: readonly number[]): T => {
      const w = weights ?? items.map(() => 1);
      let roll = next() * w.reduce((a, b) => a + b, 0);
      for (let i = 0; i < items.length; i++) if ((roll -= w[i]) < 0) return items[i];
      return items[items.length - 1];
    },
  };
}

function pool(values: AllocationFormInput) {
  const result = createAllocation(SYSTEM_ACTOR, allocationSchema.parse(values));
  if (!result.ok) throw new Error(`seed-analytics: ${result.message}`);
}

/** A day's prize pools: public and branch pre-registration pools, and purchase coupon pools. */
function seedPools(ctx: Ctx, date: string) {
  pool({ type: "preregistration_public", date, amount: 20000, count: 1, probability: 5 });
  pool({ type: "preregistration_public", date, amount: 8000, count: 3, probability: 30 });
  for (const b of ctx.branches) {
    pool({ type: "preregistration_branch", branch_id: b.id, date, amount: 10000, count: 1, probability: 15 });
    pool({ type: "preregistration_branch", branch_id: b.id, date, amount: 6000, count: 3, probability: 35 });
    pool({ type: "registration_branch", branch_id: b.id, date, amount: 10000, count: 1, probability: 20 });
    pool({ type: "registration_branch", branch_id: b.id, date, amount: 3000, count: 3, probability: 60 });
  }
}

const SOURCE_WEIGHTS: Record<string, number> = {
  NEWSPAPER: 6,
  "SOCIAL MEDIA": 14,
  RADIO: 4,
  TVC: 5,
  "EXISTING CUSTOMER": 5,
  LEAFLET: 2,
  "EXCHANGE MELA": 3,
  "ROAD SHOW": 2,
  "BRAND WEBSITE": 6,
  "ONLINE MEDIA": 7,
  "TEST RIDE": 5,
  OTHERS: 1,
};

const at = (date: string, hour: number, minute: number) =>
  new Date(kathmanduToUtc(`${date}T${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`));

/**
 * A purchase happens at a counter, so while the showrooms are open (10:00 to 18:59 here): a time
 * outside is moved to the next opening, same minute; past the history's end, back to that
 * evening's last hour, if that still follows the verification.
 */
function inShowroomHours(when: Date, verified: Date, limit: number): Date {
  const hour = new Date(when.getTime() + KATHMANDU_OFFSET_MS).getUTCHours();
  if (hour >= 10 && hour < 19) return when;
  const next = when.getTime() + ((hour >= 19 ? 24 + 10 : 10) - hour) * 3_600_000;
  if (next <= limit) return new Date(next);
  const evening = when.getTime() - (hour >= 19 ? hour - 18 : hour + 6) * 3_600_000;
  return evening > verified.getTime() ? new Date(evening) : when;
}
const KATHMANDU_OFFSET_MS = (5 * 60 + 45) * 60_000;

export async function seedAnalyticsHistory(ctx: Ctx) {
  const db = getDb();
  const rnd = generator(20261121);
  const { branches, models } = ctx;
  const lastDay = shiftDate(ctx.today, -2);
  /** No event of the history falls after the day before yesterday. */
  const limit = at(lastDay, 23, 30).getTime();
  const branchWeights = branches.map((_, i) => Math.max(1, 8 - i));
  const modelWeights = models.map((_, i) => [5, 4, 2, 3][i % 4]);
  const sources = [...SOURCE_OPTIONS];
  const purchases: { pre: typeof schema.preregistrations.$inferSelect; at: Date }[] = [];
  let person = 0;
  /** The draws, made in time order once every row is in (the public chain of draws runs in time). */
  const draws: { at: Date; thrill: 2 | 3; id: number }[] = [];

  // Every day's pools first: a day's pools are committed with its first draw and never change after.
  for (let d = HISTORY_DAYS - 1; d >= 0; d--) seedPools(ctx, shiftDate(lastDay, -d));

  for (let d = HISTORY_DAYS - 1; d >= 0; d--) {
    const date = shiftDate(lastDay, -d);
    const saturday = new Date(`${date}T12:00:00Z`).getUTCDay() === 6;
    const warmUp = (HISTORY_DAYS - d) / HISTORY_DAYS; // 0.05 .. 1
    const count = Math.round((4 + 10 * warmUp) * (saturday ? 0.6 : 1)) + rnd.int(0, 3);

    for (let i = 0; i < count; i++) {
      person++;
      const name = `${FIRST[person % FIRST.length]} ${LAST[Math.floor(person / FIRST.length) % LAST.length]}`;
      const branch = rnd.pick(branches, branchWeights);
      const atCounter = rnd.chance(0.6);
      // The last one of a few days comes in just before midnight, and verifies just after it.
      const late = i === count - 1 && d % 4 === 1;
      const created = late ? at(date, 23, 52) : at(date, rnd.int(9, 19), rnd.int(0, 59));
      const createdIso = created.toISOString();
      const source = rnd.chance(0.05)
        ? null
        : rnd.pick(
            sources,
            sources.map((s) => SOURCE_WEIGHTS[s] ?? 1),
          );
      const pre = db
        .insert(schema.preregistrations)
        .values({
          slug: randomSlug(),
          name,
          address: `${branch.city} ward ${rnd.int(1, 20)}`,
          email: rnd.chance(0.5) ? `${name.split(" ")[0].toLowerCase()}.h${person}@mail.test` : null,
          // Spread over the range (7919 is prime to 900,000: one phone a person), as real customers'
          // numbers are, not a run of consecutive SIM numbers.
          phone: `9812${String(100000 + ((person * 7919) % 900000)).padStart(6, "0")}`,
          citizenship_no: `${30500 + person}${rnd.int(1000, 9999)}`,
          shared: rnd.chance(0.35),
          bike_model_id: rnd.pick(models, modelWeights).id,
          source,
          branch_id: atCounter ? branch.id : null,
          nearest_branch_id: branch.id,
          created_at: createdIso,
          updated_at: createdIso,
        })
        .returning()
        .get();

      if (!rnd.chance(0.72)) continue;
      const lag = late ? 16 : rnd.chance(0.12) ? rnd.int(600, 1800) : rnd.int(2, 25); // minutes
      const verified = new Date(Math.min(created.getTime() + lag * 60_000, limit));
      const verifiedIso = verified.toISOString();
      db.update(schema.preregistrations)
        .set({ is_verified: true, status: "verified", verified_at: verifiedIso, updated_at: verifiedIso })
        .where(eqId(pre.id))
        .run();
      draws.push({ at: verified, thrill: 2, id: pre.id });
      if (!rnd.chance(0.5)) continue;
      const bought = inShowroomHours(
        new Date(Math.min(verified.getTime() + rnd.int(1, 72) * 3_600_000, limit)),
        verified,
        limit,
      );
      purchases.push({ pre, at: bought });
    }
  }

  // Purchases in time order, each at the branch that owns the pre-registration.
  purchases.sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const [n, { pre, at: bought }] of purchases.entries()) {
    const branchId = pre.branch_id ?? pre.nearest_branch_id!;
    const boughtIso = bought.toISOString();
    const confirmed = rnd.chance(0.9);
    const reg = db
      .insert(schema.registrations)
      .values({
        slug: randomSlug(),
        bill_no: `H${5001 + n}`,
        name: pre.name,
        address: pre.address,
        citizenship_no: pre.citizenship_no,
        email: pre.email,
        phone: pre.phone,
        bike_model_id: rnd.chance(0.85) ? pre.bike_model_id! : rnd.pick(models).id,
        engine_no: `ENH${String(710000 + n)}`,
        chasis_no: `CHH${String(910000 + n)}`,
        registration_no: `BA-${20 + (n % 70)}-PA-${6000 + n}`,
        payment_mode: rnd.pick(PAYMENT_MODES, [8, 3, 6, 2, 2, 1]),
        branch_id: branchId,
        preregistration_id: pre.id,
        shared: pre.shared,
        status: confirmed ? "confirmed" : "pending",
        confirmed_at: confirmed ? boughtIso : null,
        purchase_date: kathmanduDate(bought),
        coupon_code: newCouponCode(),
        created_at: boughtIso,
        updated_at: boughtIso,
      })
      .returning()
      .get();
    db.update(schema.preregistrations)
      .set({ purchased: true, status: "purchased", updated_at: boughtIso })
      .where(eqId(pre.id))
      .run();
    if (confirmed && rnd.chance(0.9))
      draws.push({ at: new Date(bought.getTime() + 5 * 60_000), thrill: 3, id: reg.id });
  }

  draws.sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const draw of draws) {
    setClock(() => draw.at);
    try {
      await (draw.thrill === 2 ? drawSecondThrill(draw.id) : drawThirdThrill(draw.id));
    } finally {
      setClock(null);
    }
  }

  // Test rides: a few a day, more as the campaign warms up.
  let ride = 0;
  for (let d = HISTORY_DAYS - 1; d >= 0; d--) {
    const date = shiftDate(lastDay, -d);
    const count = 2 + Math.round(5 * ((HISTORY_DAYS - d) / HISTORY_DAYS)) + rnd.int(0, 2);
    for (let i = 0; i < count; i++) {
      ride++;
      const branch = rnd.pick(branches, branchWeights);
      const name = `${FIRST[(ride * 3) % FIRST.length]} ${LAST[(ride * 7) % LAST.length]}`;
      db.insert(schema.testRides)
        .values({
          slug: randomSlug(),
          type: rnd.chance(0.2) ? "BOOKING" : "TESTRIDE",
          first_name: name.split(" ")[0],
          last_name: name.split(" ")[1],
          name,
          phone: `9813${String(100000 + ride).padStart(6, "0")}`,
          bike_model_id: rnd.pick(models, modelWeights).id,
          branch_id: branch.id,
          state: branch.state,
          district: branch.district,
          city: branch.city,
          utm_source: rnd.pick([null, "facebook", "tiktok", "google"], [5, 3, 1, 1]),
          created_at: at(date, rnd.int(8, 18), rnd.int(0, 59)).toISOString(),
        })
        .run();
    }
  }
}

const eqId = (id: number) => eq(schema.preregistrations.id, id);
