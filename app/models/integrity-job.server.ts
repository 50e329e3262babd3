/**
 * The integrity recompute (decision 21): every reason's findings made again over the whole campaign
 * and raised (a finding already flagged is not flagged twice), and addresses older than their keeping
 * purged. The server runs it on a schedule; head office runs it on demand. One process at a time
 * across the cluster: a lease row (job_leases) taken with one conditional UPDATE, which expires if
 * its holder dies, so a second process finds it taken and skips its turn.
 */
import crypto from "node:crypto";
import { and, eq, lt, or } from "drizzle-orm";
import { db, schema } from "@db/index";
import { runScript } from "~/utils/run-script.server";
import { nowIso } from "~/utils/time";
import { RULES, type Finding, type IntegrityReason } from "./integrity-findings";
import { raiseFlag } from "./integrity-flags.server";
import {
  chunks,
  scanAddressBursts,
  scanOffHours,
  scanPhoneRuns,
  scanRemadeEntries,
  scanSharedCitizenship,
  scanSharedScreenshots,
  scanSharedVehicles,
} from "./integrity-scan.server";
import { scanStatistics } from "./integrity-stats.server";
import { audit } from "./audit.server";
import { isHeadOffice, type ScopedActor } from "./scope.server";
import { transact } from "./transaction.server";

const { jobLeases: L, entryAddresses: A } = schema;

export const INTEGRITY_JOB = "integrity";
/** A recompute's lease: longer than any run (bench: under a minute at ten times the bench's data). */
const LEASE_MS = 10 * 60_000;
const HOLDER = `${process.pid}-${crypto.randomBytes(4).toString("hex")}`;

/** Takes the job's lease for `holder` if nobody holds it (or its holder's lease ran out). */
export function takeLease(name: string, holder = HOLDER, ttlMs = LEASE_MS, at = Date.now()): boolean {
  db.insert(L).values({ name, holder: null, expires_at: 0 }).onConflictDoNothing().run();
  const taken = db
    .update(L)
    .set({ holder, expires_at: at + ttlMs, last_started_at: new Date(at).toISOString() })
    .where(and(eq(L.name, name), or(lt(L.expires_at, at), eq(L.holder, holder))))
    .run();
  return taken.changes === 1;
}

/** Gives the lease back with what the run did. */
export function releaseLease(name: string, result: unknown, holder = HOLDER): void {
  db.update(L)
    .set({ holder: null, expires_at: 0, last_finished_at: nowIso(), last_result: JSON.stringify(result) })
    .where(and(eq(L.name, name), eq(L.holder, holder)))
    .run();
}

export type RecomputeResult = {
  findings: number;
  raised: number;
  reopened: number;
  byReason: Partial<Record<IntegrityReason, number>>;
  purgedAddresses: number;
  ms: number;
};

/** Every finding of the campaign, reason by reason (reads only). */
export function allFindings(): Finding[] {
  return [
    ...scanSharedCitizenship(db),
    ...scanSharedVehicles(db),
    ...scanRemadeEntries(db),
    ...scanAddressBursts(db),
    ...scanPhoneRuns(db),
    ...scanSharedScreenshots(db),
    ...scanOffHours(db),
    ...scanStatistics(db),
  ];
}

/** Addresses kept past RULES.addressDays are deleted (decision 21). */
export function purgeAddresses(at = Date.now()): number {
  const before = new Date(at - RULES.addressDays * 86_400_000).toISOString();
  return db.delete(A).where(lt(A.created_at, before)).run().changes;
}

/** The full recompute, without the lease (the caller holds it or is a test). */
export function recomputeIntegrity(): RecomputeResult {
  const started = performance.now();
  const found = allFindings();
  const byReason: RecomputeResult["byReason"] = {};
  let raised = 0;
  let reopened = 0;
  // Written in short transactions, so the public writes in between never wait long.
  for (const batch of chunks(found, 200)) {
    transact((tx) => {
      for (const f of batch) {
        const r = raiseFlag(tx, f);
        if (r.created) raised++;
        if (r.reopened) reopened++;
        byReason[f.reason] = (byReason[f.reason] ?? 0) + 1;
      }
      return { ok: true as const };
    });
  }
  const purgedAddresses = purgeAddresses();
  return {
    findings: found.length,
    raised,
    reopened,
    byReason,
    purgedAddresses,
    ms: Math.round(performance.now() - started),
  };
}

/** The recompute under the lease: null when another process holds it. */
export function runIntegrityJob(holder = HOLDER): RecomputeResult | null {
  if (!takeLease(INTEGRITY_JOB, holder)) return null;
  let result: RecomputeResult | { error: string } = { error: "did not finish" };
  try {
    result = recomputeIntegrity();
    return result;
  } catch (e) {
    result = { error: e instanceof Error ? e.message : String(e) };
    throw e;
  } finally {
    releaseLease(INTEGRITY_JOB, result, holder);
  }
}

/**
 * The recompute under the lease in a process of its own (scripts/integrity-recompute.ts), so its
 * reads over the whole campaign never hold this server's event loop: the schedule and head office's
 * "Recompute now" both run it this way. Null when another process holds the lease.
 */
export async function runIntegrityJobApart(): Promise<RecomputeResult | null> {
  const out = await runScript("integrity-recompute.ts");
  const last = out.trim().split("\n").at(-1) ?? "null";
  return JSON.parse(last) as RecomputeResult | null;
}

/** Head office's recompute on demand, in the audit trail; null when a scheduled run holds the lease now. */
export async function recomputeNow(actor: ScopedActor): Promise<RecomputeResult | null> {
  if (!isHeadOffice(actor.scope)) return null;
  const done = await runIntegrityJobApart();
  if (done) {
    const changes = { findings: { before: null, after: done.findings }, raised: { before: null, after: done.raised } };
    audit(db, actor, { action: "integrity.recompute", entityType: "integrity_flag", entityId: null, changes });
  }
  return done;
}

/** When the job last ran and what it did (the desk shows it). */
export function lastIntegrityRun() {
  return db.select().from(L).where(eq(L.name, INTEGRITY_JOB)).get() ?? null;
}

/** Minutes between scheduled recomputes (INTEGRITY_EVERY_MINUTES, 15 by default; 0 turns the schedule off). */
export function integrityEveryMinutes(): number {
  const n = Number(process.env.INTEGRITY_EVERY_MINUTES ?? 15);
  return Number.isFinite(n) && n >= 0 ? n : 15;
}
