/**
 * Demo broadcasts and referrers, made through the application's own model
 * functions where they exist: two customers who referred others (registrations
 * naming them, test rides booked and a pre-registration made through their
 * share links), a broadcast sent to everyone (done, one message
 * failed, so "send the failed ones again" has something to do) and a
 * broadcast still on its way (part sent; the server's SMS worker sends the
 * rest when it starts).
 */
import { and, asc, eq, isNull } from "drizzle-orm";
import { getDb, schema } from "./index";
import { prepareBroadcast, sendBroadcast } from "~/models/broadcast.server";
import { createPreregistration } from "~/models/preregistration.server";
import type { ScopedActor } from "~/models/scope.server";
import { sendQueued } from "~/models/sms-delivery.server";
import { type SmsProvider } from "~/models/sms-provider.server";
import { bookTestRide } from "~/models/test-ride.server";
import { broadcastSchema } from "~/schemas/broadcast";
import { counterPreregistrationSchema } from "~/schemas/preregistration";
import { testRideSchema } from "~/schemas/test-ride";
import { REFERRAL_SOURCE } from "~/utils/share-link.server";

type Branch = typeof schema.branches.$inferSelect;
type Model = typeof schema.bikeModels.$inferSelect;

/** The demo's SMS "gateway" for the seed's own sends: everything goes, except one number that fails. */
function demoProvider(failing: string): SmsProvider {
  return {
    name: "outbox",
    async send(to) {
      return to === failing
        ? { ok: false, reply: "", error: "SMS gateway: invalid receiver (mobile number) (code 1007)", permanent: true }
        : { ok: true, reply: "stored in outbox" };
    },
  };
}

async function seedReferrers(branches: Branch[], models: Model[]) {
  const db = getDb();
  const R = schema.registrations;
  const live = db.select().from(R).where(isNull(R.deleted_at)).orderBy(asc(R.id)).all();
  // The campaign's first two customers (db/seed-campaign.ts) share their links; the demo's older
  // days are seeded before them, so they are found by name, not by place.
  const ram = live.find((r) => r.name === "Ram Bahadur Thapa");
  const sita = live.find((r) => r.name === "Sita Kumari Shrestha");
  if (!ram || !sita) return;
  const others = live.filter((r) => r !== ram && r !== sita);
  // Registrations that named them as referrer at the counter.
  others.forEach((reg, i) => {
    const referrer = i % 3 === 2 ? sita : ram;
    if (referrer.phone === reg.phone) return;
    db.update(R)
      .set({ registration_id: referrer.id, referred_by: referrer.branch_id === reg.branch_id ? referrer.name : null })
      .where(eq(R.id, reg.id))
      .run();
  });
  // Test rides booked through their share links.
  const riders = [
    ["Ashok Lama", ram],
    ["Bina Subedi", ram],
    ["Chiran Thapa", ram],
    ["Durga Oli", sita],
  ] as const;
  riders.forEach(([name, referrer], i) => {
    const branch = branches[i % branches.length];
    const booked = bookTestRide(
      testRideSchema.parse({
        type: "TESTRIDE",
        name,
        state: branch.state,
        district: branch.district,
        city: branch.city,
        email: `${name.split(" ")[0].toLowerCase()}@mail.test`,
        phone: `984200001${i}`,
        bike_model_id: models[i % models.length].id,
        branch_id: branch.id,
        utm_source: REFERRAL_SOURCE,
      }),
      { referral: { code: referrer.share_code!, source: REFERRAL_SOURCE } },
    );
    if (!booked.ok) throw new Error(`Seed referred test ride failed: ${booked.message}`);
  });
  // A pre-registration made on the public site through Ram's link.
  const pre = await createPreregistration(
    { channel: "public", address: null, referral: { code: ram.share_code!, source: REFERRAL_SOURCE } },
    counterPreregistrationSchema.parse({
      name: "Ekta Basnet",
      address: "Kathmandu 9",
      phone: "9842000020",
      citizenship_no: "27099-1099",
      shared: false,
      bike_model_id: models[0].id,
      source: "EXISTING CUSTOMER",
      nearest_branch_id: branches[0].id,
      send_sms: true,
    }),
  );
  if (!pre.ok) throw new Error(`Seed referred pre-registration failed: ${pre.message}`);
}

async function seedBroadcasts() {
  const db = getDb();
  const admin = db
    .select({ id: schema.users.id, email: schema.users.email })
    .from(schema.users)
    .where(and(isNull(schema.users.branch_id), isNull(schema.users.deleted_at)))
    .orderBy(asc(schema.users.id))
    .get();
  const actor: ScopedActor = {
    id: admin?.id ?? null,
    email: admin?.email ?? "seed",
    address: null,
    scope: { branchId: null },
  };

  // First: an offer to everyone, sent; one number failed.
  const all = await sendBroadcast(
    actor,
    await broadcastSchema.parseAsync({
      type: "ALL",
      text: "Thrill Bikes: test ride days this weekend at every showroom. Bring a friend and ride the new Thunder 150!",
    }),
  );
  if (!all.ok) throw new Error(`Seed broadcast failed: ${all.message}`);
  await prepareBroadcast(all.broadcast.id);
  const first = db
    .select({ to: schema.smsMessages.to })
    .from(schema.smsMessages)
    .where(eq(schema.smsMessages.broadcast_id, all.broadcast.id))
    .orderBy(asc(schema.smsMessages.to))
    .get();
  // Everything queued so far leaves (the demo's codes and notices too); one broadcast number fails.
  for (;;) {
    const r = await sendQueued(50, demoProvider(first?.to ?? ""));
    if (!r.sent && !r.failed) break;
  }

  // Now: a Nepali message to a typed list, part sent; the worker sends the rest.
  const mobiles = Array.from({ length: 60 }, (_, i) => String(9700000100 + i));
  const running = await sendBroadcast(
    actor,
    await broadcastSchema.parseAsync({
      type: "MOBILE",
      mobiles: mobiles.join(", "),
      text: "थ्रिल बाइक्स: यो शनिबार नजिकको शोरुममा निःशुल्क टेस्ट राइड। साथीलाई पनि ल्याउनुहोस्!",
    }),
  );
  if (!running.ok) throw new Error(`Seed broadcast failed: ${running.message}`);
  await prepareBroadcast(running.broadcast.id);
  await sendQueued(20, demoProvider(""));
}

export async function seedBroadcast(branches: Branch[], models: Model[]) {
  await seedReferrers(branches, models);
  await seedBroadcasts();
}
