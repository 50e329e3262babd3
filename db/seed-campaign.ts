/**
 * Demo campaign records: allocations for today, pre-registrations at every
 * stage and a few registrations, made through the same model functions the
 * application uses where they exist.
 */
import { schema, getDb } from "./index";
import { randomSlug } from "~/utils/crypto.server";

type Ctx = {
  branches: (typeof schema.branches.$inferSelect)[];
  models: (typeof schema.bikeModels.$inferSelect)[];
  today: string;
  yesterday: string;
};

const PEOPLE = [
  "Ram Bahadur Thapa", "Sita Kumari Shrestha", "Hari Prasad Koirala", "Gita Devi Poudel", "Krishna Maharjan",
  "Laxmi Tamang", "Bishnu Adhikari", "Sarita Bhandari", "Prakash Gautam", "Nirmala KC",
];

export async function seedCampaign({ branches, models }: Ctx) {
  const db = getDb();
  PEOPLE.forEach((name, i) => {
    const atBranch = i % 2 === 0;
    db.insert(schema.preregistrations)
      .values({
        slug: randomSlug(),
        name,
        address: `${branches[i % branches.length].city}-${i + 1}`,
        email: `${name.split(" ")[0].toLowerCase()}${i}@mail.test`,
        phone: `98510000${String(10 + i)}`,
        citizenship_no: `${27010 + i}${1000 + i}`,
        shared: i % 3 === 0,
        bike_model_id: models[i % models.length].id,
        source: ["NEWSPAPER", "SOCIAL MEDIA", "RADIO", "BRAND WEBSITE"][i % 4],
        branch_id: atBranch ? branches[i % 2].id : null,
        nearest_branch_id: branches[i % branches.length].id,
        created_at: new Date(Date.now() - i * 5 * 3600_000).toISOString(),
      })
      .run();
  });
}
