/**
 * The integrity desk on a campaign with known cheats (decision 21): every planted cheat is flagged
 * with its reason, and at most 1% of the honest entries, staff users and branches are flagged. The
 * recompute run twice makes no second flag.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { inArray } from "drizzle-orm";
import { db, schema } from "@db/index";
import { recomputeIntegrity, runIntegrityJob, runIntegrityJobApart, takeLease } from "~/models/integrity-job.server";
import { HOURS_SETTING } from "~/models/integrity-write.server";
import { RULES } from "~/models/integrity-findings";
import { setSetting } from "~/models/settings.server";
import { judgeFlags, plantCampaign, type Campaign } from "../integrity-campaign";

const { integrityFlags: F } = schema;
let campaign: Campaign;
let first: ReturnType<typeof recomputeIntegrity>;

beforeAll(async () => {
  // The campaign's cheats include registrations at night: the desk's own hours (the tests' base opens all day).
  setSetting(HOURS_SETTING, RULES.hours);
  campaign = await plantCampaign();
  first = recomputeIntegrity();
  console.info("campaign", campaign.counts, "recompute", first);
}, 120_000);

describe("a campaign with planted cheats", () => {
  it("flags every planted cheat with its reason", () => {
    const judged = judgeFlags(campaign);
    expect(judged.missed).toEqual([]);
    expect(judged.reasons).toBe(9);
  });

  it("flags at most 1% of the honest entries, staff users and branches", () => {
    const { entries, staff, branches } = judgeFlags(campaign).honest;
    console.info(
      `honest flagged: ${entries.flagged} of ${entries.of} entries, ${staff.flagged} of ${staff.of} staff, ${branches.flagged} of ${branches.of} branches`,
    );
    for (const kind of [entries, staff, branches]) expect(kind.flagged).toBeLessThanOrEqual(kind.most);
  });

  it("raises nothing twice when recomputed, and runs one process at a time", () => {
    const before = db.select().from(F).all().length;
    const again = recomputeIntegrity();
    expect(again.raised).toBe(0);
    expect(db.select().from(F).all().length).toBe(before);
    // Another process holds the lease: this one skips its turn.
    expect(takeLease("integrity", "another-process")).toBe(true);
    expect(runIntegrityJob()).toBeNull();
    db.update(schema.jobLeases)
      .set({ expires_at: 0 })
      .where(inArray(schema.jobLeases.name, ["integrity"]))
      .run();
    expect(runIntegrityJob()).not.toBeNull();
  });

  it("runs apart from the server: the recompute is another process, and this one's event loop stays free", async () => {
    const before = db.select().from(F).all().length;
    let ticks = 0;
    let longest = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      ticks++;
    }, 10);
    const done = await runIntegrityJobApart();
    clearInterval(timer);
    // The child read this file's database and found what this process found (nothing new to raise).
    expect(done).not.toBeNull();
    expect(done!.findings).toBe(recomputeIntegrity().findings);
    expect(done!.raised).toBe(0);
    expect(db.select().from(F).all().length).toBe(before);
    // The recompute took its time in the child, while this loop kept turning: it was never held for
    // as long as the recompute took here.
    expect(ticks).toBeGreaterThan(5);
    expect(longest).toBeLessThan(first.ms);
  });
});
