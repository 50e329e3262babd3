/**
 * The integrity flags as stored (decision 21): one flag a reason and subject, raised again without a
 * second copy, the entries each holds, and what holds a prize: an open or held flag on the entry (its
 * coupon print and prize notice wait for head office), or a void (the prize is not paid; the draw's
 * record is not touched). Who may read and decide flags is the desk's (integrity-desk.server.ts).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { schema, type Executor } from "@db/index";
import { prepared } from "@db/prepared";
import { nowIso } from "~/utils/time";
import type { Finding } from "./integrity-findings";

const { integrityFlags: F, integrityFlagEntries: E, prizeVoids: V } = schema;

/** The statuses whose flags hold their entries' prizes. */
export const HOLDING = ["open", "held"] as const;

const flagOf = prepared((q) =>
  q
    .select({ id: F.id, status: F.status, strength: F.strength, evidence: F.evidence })
    .from(F)
    .where(
      and(
        eq(F.reason, sql.placeholder("reason")),
        eq(F.subject_type, sql.placeholder("subjectType")),
        eq(F.subject_key, sql.placeholder("subjectKey")),
      ),
    )
    .prepare(),
);

/** Links entries to a flag; how many were not linked before. */
function link(exec: Executor, flagId: number, entries: number[]): number {
  let added = 0;
  for (let at = 0; at < entries.length; at += 500) {
    const rows = entries.slice(at, at + 500).map((preregistration_id) => ({ flag_id: flagId, preregistration_id }));
    added += exec.insert(E).values(rows).onConflictDoNothing().run().changes;
  }
  return added;
}

export type Raised = { id: number; created: boolean; reopened: boolean };

/**
 * Raises a finding as a flag, inside the caller's transaction. A new subject makes a flag (open); one
 * flagged already is not flagged twice: an undecided flag takes the new evidence; a decided one
 * (cleared, voided) is left as decided unless the finding brings entries it did not have, which opens
 * it again (new evidence since the decision). Nothing is written when nothing changed.
 */
export function raiseFlag(exec: Executor, finding: Finding, at = nowIso()): Raised {
  const key = { reason: finding.reason, subjectType: finding.subjectType, subjectKey: finding.subjectKey };
  const evidence = JSON.stringify(finding.evidence);
  let existing = flagOf(exec).get(key);
  if (!existing) {
    const inserted = exec
      .insert(F)
      .values({
        reason: finding.reason,
        subject_type: finding.subjectType,
        subject_key: finding.subjectKey,
        branch_id: finding.branchId,
        user_id: finding.userId,
        strength: finding.strength,
        evidence,
        raised_at: at,
        updated_at: at,
      })
      .onConflictDoNothing()
      .returning({ id: F.id })
      .get();
    if (inserted) {
      link(exec, inserted.id, finding.entries);
      return { id: inserted.id, created: true, reopened: false };
    }
    // Raised by another writer between the look and the insert.
    existing = flagOf(exec).get(key)!;
  }
  const added = link(exec, existing.id, finding.entries);
  const undecided = (HOLDING as readonly string[]).includes(existing.status);
  const reopened = !undecided && added > 0;
  const changed = existing.evidence !== evidence || existing.strength !== finding.strength;
  if ((undecided && changed) || reopened) {
    exec
      .update(F)
      .set({
        strength: finding.strength,
        evidence,
        branch_id: finding.branchId,
        user_id: finding.userId,
        updated_at: at,
        ...(reopened ? { status: "open" as const } : {}),
      })
      .where(eq(F.id, existing.id))
      .run();
  }
  return { id: existing.id, created: false, reopened };
}

/**
 * Adds one entry to a subject's flag, if the subject is flagged (inside the caller's transaction): an
 * undecided flag holds it with the others; a decided one opens again, as a finding with a new entry
 * would open it. The flag's evidence is left as it was (the next recompute writes it again). False
 * when the subject has no flag.
 */
export function attachToFlag(
  exec: Executor,
  key: Pick<Finding, "reason" | "subjectType" | "subjectKey">,
  entryId: number,
  at = nowIso(),
): boolean {
  const existing = flagOf(exec).get(key);
  if (!existing) return false;
  const added = link(exec, existing.id, [entryId]);
  if (added > 0 && !(HOLDING as readonly string[]).includes(existing.status))
    exec.update(F).set({ status: "open", updated_at: at }).where(eq(F.id, existing.id)).run();
  return true;
}

// ---------------------------------------------------------------- holds and voids

/**
 * The entries among `ids` whose prizes an open or held flag holds. The query goes from the entries to their
 * flags: the unary plus on the status keeps SQLite from the status index, with which it read every open
 * flag's entries (60,000 open flags after a rehearsal: 3.8 s for 500 entries, against under 1 ms).
 */
export function heldAmong(exec: Executor, ids: readonly number[]): Set<number> {
  const out = new Set<number>();
  for (let at = 0; at < ids.length; at += 500) {
    for (const r of heldQuery(exec, ids.slice(at, at + 500)).all()) out.add(r.id);
  }
  return out;
}

/** heldAmong's query for at most 500 entries (its plan is tested). */
export const heldQuery = (exec: Executor, ids: readonly number[]) =>
  exec
    .selectDistinct({ id: E.preregistration_id })
    .from(E)
    .innerJoin(F, eq(F.id, E.flag_id))
    .where(and(inArray(E.preregistration_id, [...ids]), inArray(sql`+${F.status}`, [...HOLDING])));

export type VoidedPrize = { reason: string; voided_at: string };

/** The entries among `ids` whose prizes are voided, with why and when. */
export function voidedAmong(exec: Executor, ids: readonly number[]): Map<number, VoidedPrize> {
  const out = new Map<number, VoidedPrize>();
  for (let at = 0; at < ids.length; at += 500) {
    const rows = exec
      .select({ id: V.preregistration_id, reason: V.reason, voided_at: V.voided_at })
      .from(V)
      .where(inArray(V.preregistration_id, ids.slice(at, at + 500)))
      .all();
    for (const r of rows) out.set(r.id, { reason: r.reason, voided_at: r.voided_at });
  }
  return out;
}

/**
 * What keeps an entry's prize from being paid: "voided" (for good), "held" (an open or held flag:
 * under review), or null. Branch users are told only this, never the flag.
 */
export type PrizeHold = "voided" | "held" | null;

export function prizeHoldsOf(exec: Executor, ids: readonly number[]): Map<number, Exclude<PrizeHold, null>> {
  const out = new Map<number, Exclude<PrizeHold, null>>();
  for (const id of heldAmong(exec, ids)) out.set(id, "held");
  for (const id of voidedAmong(exec, ids).keys()) out.set(id, "voided");
  return out;
}

export const prizeHoldOf = (exec: Executor, id: number): PrizeHold => prizeHoldsOf(exec, [id]).get(id) ?? null;

/** The words a counter reads for a held or voided prize (no reason, no flag: decision 21). */
export const HOLD_MESSAGES = {
  held: "This prize is under review by head office: its coupon cannot be printed and its prize SMS waits until head office clears it.",
  voided: "Head office has voided this prize: its coupon cannot be printed and no prize SMS is sent.",
} as const;
