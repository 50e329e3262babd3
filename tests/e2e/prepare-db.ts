/**
 * A fresh database for one end-to-end run: migrations, the demo seed, and a
 * staff user whose role holds no permission (to walk the route table).
 */
import fs from "node:fs";
import path from "node:path";

const dataDir = process.env.DATA_DIR!;
if (!process.env.E2E_PREPARE || !dataDir) throw new Error("Only for end-to-end runs.");
fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });

// The demo seed refuses production; this process prepares data only.
process.env.NODE_ENV = "development";
const { seed } = await import("../../db/seed");
const { getDb, schema } = await import("../../db/index");
const { createUser } = await import("../../app/models/user.server");
await seed();
const db = getDb();
const role = db.insert(schema.roles).values({ slug: "no-permissions", title: "No Permissions" }).returning().get();
await createUser({
  first_name: "Nobody",
  email: "nobody@demo.test",
  role_id: role.id,
  branch_id: 2,
  password: "Demo@12345",
});
// Showrooms open all day (decision 21): the counters' tests register purchases at whatever hour the run falls
// on, and outside the demo's hours the desk would hold their coupons as off-hours (the demo's planted cheats
// were flagged by the seed's recompute already).
db.insert(schema.settings)
  .values({ key: "integrity_hours", value: JSON.stringify({ opens: "00:00", closes: "00:00" }) })
  .onConflictDoUpdate({
    target: schema.settings.key,
    set: { value: JSON.stringify({ opens: "00:00", closes: "00:00" }) },
  })
  .run();
db.$client.close();
console.log(`e2e database ready in ${path.resolve(dataDir)}`);
