/**
 * Demo data for development and tests (never production): branches across
 * several states, bike models with thumbnails, one user per seeded role,
 * pre-registrations, registrations, test rides, allocations, videos and texts.
 * Run: `tsx db/seed.ts` (always) or `tsx db/seed.ts --if-empty` (only a new database).
 */
import sharp from "sharp";
import { count } from "drizzle-orm";
import { getDb, schema } from "./index";
import { storeImage } from "~/models/file.server";
import { createUser, roleBySlug } from "~/models/user.server";
import { randomSlug } from "~/utils/crypto.server";
import { kathmanduDate, shiftDate } from "~/utils/time";
import { seedAnalyticsHistory } from "./seed-analytics";
import { motorbikeSvg } from "./seed-art";
import { seedBroadcast } from "./seed-broadcast";
import { seedCampaign, seedCampaignPools } from "./seed-campaign";
import { startLocalBeacon } from "../scripts/local-beacon.mjs";
import { seedCatalogue } from "./seed-catalogue";
import { seedSettings } from "./seed-settings";
import { seedStaff } from "./seed-staff";
import { seedIntegrity } from "./seed-integrity";
import { seedVideos } from "./seed-videos";

export const DEMO_PASSWORD = "Demo@12345";
export const DEMO_USERS = {
  admin: "admin@demo.test",
  manager: "manager@demo.test",
  staff: "staff@demo.test",
};

export const DEMO_BRANCHES = [
  {
    title: "Kathmandu Central",
    state: "Bagmati",
    district: "Kathmandu",
    city: "Kathmandu",
    phone: "01-4411223/9851012345",
    mobile: "9851012345",
  },
  {
    title: "Lalitpur Motors",
    state: "Bagmati",
    district: "Lalitpur",
    city: "Patan",
    phone: "01-5522334",
    mobile: "9851055223",
  },
  {
    title: "Bhaktapur Auto",
    state: "Bagmati",
    district: "Bhaktapur",
    city: "Bhaktapur",
    phone: "01-6611223/01-6611224",
    mobile: "9851066112/9841066112",
  },
  {
    title: "Pokhara Lakeside",
    state: "Gandaki",
    district: "Kaski",
    city: "Pokhara",
    phone: "061-456789/9856012345",
    mobile: "9856012345",
  },
  {
    title: "Biratnagar Wheels",
    state: "Koshi",
    district: "Morang",
    city: "Biratnagar",
    phone: "021-445566",
    mobile: "9852044556",
  },
  {
    title: "Itahari Riders",
    state: "Koshi",
    district: "Sunsari",
    city: "Itahari",
    phone: "025-585858/9842012345",
    mobile: "9842012345",
  },
  {
    title: "Butwal Motors",
    state: "Lumbini",
    district: "Rupandehi",
    city: "Butwal",
    phone: "071-540540",
    mobile: "9857054054",
  },
  {
    title: "Birgunj Bikes",
    state: "Madhesh",
    district: "Parsa",
    city: "Birgunj",
    phone: "051-523523/9845012345",
    mobile: "9845012345",
  },
];

const MODELS = [
  ["Thunder 150", "#c8102e"],
  ["Street 125", "#1f6feb"],
  ["Trail 200", "#2e7d32"],
  ["Scooty Breeze 110", "#f9a825"],
] as const;

async function thumbnail(title: string, color: string) {
  const png = await sharp(Buffer.from(motorbikeSvg(title, color)))
    .png()
    .toBuffer();
  return storeImage(png, { type: "bike-model", filename: `${title}.png` });
}

export async function seed() {
  const db = getDb();
  const branches = DEMO_BRANCHES.map((b, i) =>
    db
      .insert(schema.branches)
      .values({
        slug: randomSlug(),
        ...b,
        location: `${b.city} main road`,
        email: `branch${i + 1}@demo.test`,
      })
      .returning()
      .get(),
  );
  const models: (typeof schema.bikeModels.$inferSelect)[] = [];
  for (const [title, color] of MODELS) {
    const thumb = await thumbnail(title, color);
    models.push(
      db.insert(schema.bikeModels).values({ slug: randomSlug(), title, thumbnail_id: thumb.id }).returning().get(),
    );
  }
  const role = (slug: string) => roleBySlug(slug)!.id;
  await createUser({
    first_name: "Head",
    last_name: "Office",
    email: DEMO_USERS.admin,
    phone: "9800000001",
    role_id: role("super-admin"),
    password: DEMO_PASSWORD,
  });
  await createUser({
    first_name: "Mina",
    last_name: "Manager",
    email: DEMO_USERS.manager,
    phone: "9800000002",
    role_id: role("branch-manager"),
    branch_id: branches[0].id,
    password: DEMO_PASSWORD,
  });
  await createUser({
    first_name: "Sagar",
    last_name: "Staff",
    email: DEMO_USERS.staff,
    phone: "9800000003",
    role_id: role("branch-staff"),
    branch_id: branches[1].id,
    password: DEMO_PASSWORD,
  });

  await seedSettings();

  const today = kathmanduDate();
  const testRideNames = ["Anil Shrestha", "Bimala Gurung", "Chandra Rai", "Deepa Thapa", "Eshan Karki", "Firoj Ansari"];
  testRideNames.forEach((name, i) => {
    const b = branches[i % 3];
    db.insert(schema.testRides)
      .values({
        slug: randomSlug(),
        type: i % 4 === 3 ? "BOOKING" : "TESTRIDE",
        first_name: name.split(" ")[0],
        last_name: name.split(" ")[1],
        name,
        email: `${name.split(" ")[0].toLowerCase()}@mail.test`,
        phone: `98410000${10 + i}`,
        bike_model_id: models[i % models.length].id,
        branch_id: b.id,
        state: b.state,
        district: b.district,
        city: b.city,
        utm_source: i % 2 ? "facebook" : null,
        created_at: new Date(Date.now() - i * 7 * 3600_000).toISOString(),
      })
      .run();
  });

  // The demo's draws are decided by the demo beacon (scripts/local-beacon.mjs, its key public):
  // its days say so. Older days first, so the chain runs in time order.
  const beacon = await startLocalBeacon();
  const before = { ...process.env };
  Object.assign(process.env, beacon.settings);
  try {
    const campaign = { branches, models, today, yesterday: shiftDate(today, -1) };
    seedCampaignPools(campaign);
    await seedAnalyticsHistory({ branches, models, today });
    await seedCampaign(campaign);
  } finally {
    for (const key of Object.keys(beacon.settings)) {
      if (before[key] === undefined) delete process.env[key];
      else process.env[key] = before[key];
    }
    await beacon.close();
  }
  await seedVideos();
  await seedStaff(branches, DEMO_PASSWORD);
  await seedCatalogue();
  await seedBroadcast(branches, models);
  seedIntegrity(branches);
}

async function main() {
  if (process.env.NODE_ENV === "production") {
    console.error("The demo seed does not run in production. Use `npm run create-admin`.");
    process.exit(1);
  }
  const db = getDb();
  if (process.argv.includes("--if-empty")) {
    const users = db.select({ n: count() }).from(schema.users).get()?.n ?? 0;
    if (users > 0) {
      console.log("Database already has data; demo seed skipped.");
      return;
    }
  }
  await seed();
  console.log(`Demo data seeded. Logins (password ${DEMO_PASSWORD}): ${Object.values(DEMO_USERS).join(", ")}`);
}

if (process.argv[1]?.endsWith("seed.ts")) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
