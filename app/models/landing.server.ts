/**
 * What the landing page shows of the campaign, the same for every visitor and
 * read through the public cache: the headline prize and the bikes on sale.
 *
 * The headline is the most a public visitor can win in today's draw (spec 000
 * §9, the second thrill): the largest public pre-registration pool of the
 * Kathmandu day with prizes left, or the largest amount of the base table
 * when that is larger (the draw falls back to it). The first thrill (Rs. 1,000
 * for sharing) is said apart on the page.
 */
import { and, eq, lt, max } from "drizzle-orm";
import { db, schema } from "@db/index";
import { listBikeModels } from "./bike-model.server";
import { getFile } from "./file.server";
import { getBaseTable } from "./prize-settings.server";
import { cachedPublic } from "./public-cache.server";
import { kathmanduDate } from "~/utils/time";

const { allocations } = schema;

/** The largest prize a public visitor can win today (0 when nothing is on offer). */
export function topPrize(date: string = kathmanduDate()): number {
  // Kept per day and version: a pool's last prize paid moves the public version (migration 0011).
  return cachedPublic(`landing:top-prize:${date}`, () => {
    const pool =
      db
        .select({ amount: max(allocations.amount) })
        .from(allocations)
        .where(
          and(
            eq(allocations.type, "preregistration_public"),
            eq(allocations.date, date),
            lt(allocations.paid, allocations.count),
          ),
        )
        .get()?.amount ?? 0;
    const base = Math.max(0, ...getBaseTable("second").map((r) => r.amount));
    return { amount: Math.max(pool, base) };
  }).amount;
}

export type LandingBike = { id: number; title: string; src: string | null; width: number; height: number };

/** The bikes on sale with their thumbnails' addresses and sizes (so the page does not jump as they load). */
export function landingBikes(): LandingBike[] {
  return cachedPublic("landing:bikes", () =>
    listBikeModels().map((m) => {
      const file = m.thumbnail_id ? getFile(m.thumbnail_id) : undefined;
      return {
        id: m.id,
        title: m.title,
        src: file ? m.thumbnail_url : null,
        width: file?.width ?? 16,
        height: file?.height ?? 10,
      };
    }),
  );
}
