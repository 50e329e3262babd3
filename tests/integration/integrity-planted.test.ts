/**
 * The integrity desk on a campaign with known cheats (decision 21): every planted cheat is flagged
 * with its reason, and at most 1% of the honest entries, staff users and branches are flagged. The
 * recompute run twice makes no second flag.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { db, schema } from "@db/index";
import { recomputeIntegrity, runIntegrityJob, runIntegrityJobApart, takeLease } from "~/models/integrity-job.server";
import { HOURS_SETTING } from "~/models/integrity-write.server";
import { RULES } from "~/models/integrity-findings";
import { setSetting } from "~/models/settings.server";
import { plantCampaign, type Campaign } from "../integrity-campaign";

const { integrityFlags: F, integrityFlagEntries: E } = schema;
let campaign: Campaign;
let first: ReturnType<typeof recomputeIntegrity>;

beforeAll(async () => {
  // The campaign's cheats include registrations at night: the desk's own hours (the tests' base opens all day).
  setSetting(HOURS_SETTING, RULES.hours);
  campaign = await plantCampaign();
  first = recomputeIntegrity();
  console.info("campaign", campaign.counts, "recompute", first);
}, 120_000);

const flagsOf = (reason: string) =>
  db
    .select()
    .from(F)
    .where(eq(F.reason, reason as never))
    .all();
const entriesOf = (flagId: number) =>
  db
    .select({ id: E.preregistration_id })
    .from(E)
    .where(eq(E.flag_id, flagId))
    .all()
    .map((r) => r.id);

describe("a campaign with planted cheats", () => {
  it("flags every planted cheat with its reason", () => {
    const missed: string[] = [];
    for (const p of campaign.planted) {
      const flags = flagsOf(p.reason);
      const found = flags.some((f) => {
        if (p.user !== undefined) return f.subject_type === "user" && f.user_id === p.user;
        if (p.branch !== undefined) return f.subject_type === "branch" && f.branch_id === p.branch;
        const held = new Set(entriesOf(f.id));
        return p.entries!.some((id) => held.has(id));
      });
      if (!found) missed.push(`${p.reason}: ${p.what}`);
    }
    expect(missed).toEqual([]);
    expect(new Set(campaign.planted.map((p) => p.reason)).size).toBe(9);
  });

  it("flags at most 1% of the honest entries, staff users and branches", () => {
    const flags = db.select().from(F).all();
    const heldIds = new Set(
      db
        .select({ id: E.preregistration_id })
        .from(E)
        .all()
        .map((r) => r.id),
    );
    const honestEntries = [...campaign.honestEntries].filter((id) => heldIds.has(id));
    const honestStaff = new Set(
      flags.filter((f) => f.subject_type === "user" && campaign.honestStaff.has(f.user_id!)).map((f) => f.user_id),
    );
    const honestBranches = new Set(
      flags
        .filter((f) => f.subject_type === "branch" && campaign.honestBranches.has(f.branch_id!))
        .map((f) => f.branch_id),
    );
    console.info(
      `honest flagged: ${honestEntries.length} of ${campaign.honestEntries.size} entries, ${honestStaff.size} of ${campaign.honestStaff.size} staff, ${honestBranches.size} of ${campaign.honestBranches.size} branches`,
    );
    expect(honestEntries.length).toBeLessThanOrEqual(campaign.honestEntries.size * 0.01);
    expect(honestStaff.size).toBeLessThanOrEqual(Math.floor(campaign.honestStaff.size * 0.01));
    expect(honestBranches.size).toBeLessThanOrEqual(Math.floor(campaign.honestBranches.size * 0.01));
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
