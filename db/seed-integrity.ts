/**
 * The demo's planted cheats, so a newcomer opening the integrity desk sees it work (decision 21): one
 * citizenship number behind three phones, a burst of entries from one address range, a run of
 * consecutive SIM numbers, and an entry deleted and made again for the same phone; then the full
 * recompute, as the server's schedule would run it.
 */
import { recomputeIntegrity } from "~/models/integrity-job.server";
import { randomSlug } from "~/utils/crypto.server";
import { getDb, schema } from "./index";

export function seedIntegrity(branches: { id: number }[]) {
  const db = getDb();
  const now = Date.now();
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
  const entry = (
    name: string,
    phone: string,
    citizenship: string,
    minutesAgo: number,
    over: Partial<typeof schema.preregistrations.$inferInsert> = {},
  ) =>
    db
      .insert(schema.preregistrations)
      .values({
        slug: randomSlug(),
        name,
        address: "Kathmandu",
        phone,
        citizenship_no: citizenship,
        branch_id: branches[0].id,
        nearest_branch_id: branches[0].id,
        created_at: at(minutesAgo),
        updated_at: at(minutesAgo),
        ...over,
      })
      .returning()
      .get();
  // One citizenship number, three phones.
  ["9849100001", "9861200002", "9803300003"].forEach((phone, i) =>
    entry(`Kiran Demo ${i + 1}`, phone, "7711223344", 300 - i * 40),
  );
  // Twelve entries from one /24 in six minutes.
  for (let i = 0; i < 12; i++) {
    const e = entry(`Burst Visitor ${i + 1}`, `98455${String(10000 + i * 37)}`, `66001${i}22`, 120 - i / 2, {
      branch_id: branches[1].id,
      nearest_branch_id: branches[1].id,
    });
    db.insert(schema.entryAddresses)
      .values({
        preregistration_id: e.id,
        address: `203.0.113.${20 + i}`,
        range: "203.0.113.0/24",
        created_at: e.created_at,
      })
      .run();
  }
  // Five SIM cards of one batch within half an hour.
  for (let i = 0; i < 5; i++)
    entry(`Batch Holder ${i + 1}`, String(9818700400 + i), `55002${i}99`, 90 - i * 6, {
      branch_id: branches[2].id,
      nearest_branch_id: branches[2].id,
    });
  // Deleted, then made again for the same phone.
  entry("Remade Demo", "9841999000", "4400112233", 240, { deleted_at: at(200) });
  entry("Remade Demo", "9841999000", "4400112233", 180);
  return recomputeIntegrity();
}
