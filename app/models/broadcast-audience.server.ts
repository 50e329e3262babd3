/**
 * Who an SMS broadcast reaches (spec 001 §2.10; decision 16), and the
 * checks on the staff's choice. The rules are in broadcast.server.ts's header;
 * here they are written as SQL "arms" (registrations, pre-registrations, a
 * typed list), read in phone order so a number reached twice is counted and
 * sent once, and so a preparation can carry on from the last phone stored.
 */
import { and, eq, gt, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { setImmediate as nextTurn } from "node:timers/promises";
import { db, schema, type Executor } from "@db/index";
import { type FieldErrors } from "~/utils/failure";
import { BROADCAST_MESSAGES as MSG, type BroadcastInput, type BroadcastType } from "~/schemas/broadcast";
import { normalizePhone } from "~/utils/phone";
import { CAMPAIGN } from "./preregistration.server";
import { branchCondition, type Scope, isHeadOffice } from "./scope.server";

const { registrations: R, preregistrations: P, branches } = schema;

/** Messages stored per transaction by the preparation at most (decision 8: 250 rows). */
export const PREPARE_CHUNK = 250;
/** How long one step of counting or storing may hold the event loop (as the .xls writer's slices). */
export const SLICE_MS = 5;
/** Phones read per query when counting recipients. */
const COUNT_STEP = 250;

/** A valid Nepali mobile as stored (10 digits starting with 9), in SQL. */
export const VALID_PHONE = "9[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]";
export const isValid = (phone: string) => normalizePhone(phone) === phone;

// ---------------------------------------------------------------- who a broadcast reaches

/** Whom a broadcast reaches, as stored on its row. */
export type Audience = {
  type: BroadcastType;
  branches: number[];
  registrants: number[];
  /** Distinct normalized numbers, sorted. */
  mobiles: string[];
  /** The sender's branch (null: head office): ALL and customers stay inside it. */
  scopeBranchId: number | null;
  /** Registrations made and pre-registrations verified after this instant are not reached. */
  cutoff: string;
};

/**
 * One source of phones: the next `limit` distinct phones after `after`, in
 * phone order (valid or not). `query` is the SQL it runs (none for a typed list).
 */
export type Arm = {
  next: (exec: Executor, after: string, limit: number) => string[];
  query?: (exec: Executor, after: string, limit: number) => { toSQL(): { sql: string; params: unknown[] } };
};

type PhoneQuery = (
  exec: Executor,
  after: string,
  limit: number,
) => { all(): { phone: string }[]; toSQL(): { sql: string; params: unknown[] } };

/** An arm read page by page from a query of phones in phone order. */
function phoneArm(query: PhoneQuery): Arm {
  return {
    query,
    next: (exec, after, limit) =>
      query(exec, after, limit)
        .all()
        .map((r) => r.phone),
  };
}

function registrationArm(cond: SQL | undefined, cutoff: string): Arm {
  const query = (exec: Executor, after: string, limit: number) =>
    exec
      .select({ phone: R.phone })
      .from(R)
      .where(and(gt(R.phone, after), isNull(R.deleted_at), sql`${R.created_at} <= ${cutoff}`, cond))
      .groupBy(R.phone)
      .orderBy(R.phone)
      .limit(limit);
  return phoneArm(query);
}

function preregistrationArm(cond: SQL | undefined, cutoff: string): Arm {
  // (campaign, phone) is unique: one range of preregistrations_phone_unique, in phone order.
  const query = (exec: Executor, after: string, limit: number) =>
    exec
      .select({ phone: P.phone })
      .from(P)
      .where(
        and(
          eq(P.campaign, CAMPAIGN),
          gt(P.phone, after),
          eq(P.is_verified, true),
          isNull(P.deleted_at),
          sql`coalesce(${P.verified_at}, ${P.created_at}) <= ${cutoff}`,
          cond,
        ),
      )
      .orderBy(P.phone)
      .limit(limit);
  return phoneArm(query);
}

function listArm(sorted: string[]): Arm {
  return {
    next: (_exec, after, limit) => {
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (sorted[mid] <= after) lo = mid + 1;
        else hi = mid;
      }
      return sorted.slice(lo, lo + limit);
    },
  };
}

/** The branches a BRANCH broadcast (or a branch user's ALL) reaches. */
function branchesOf(a: Audience): number[] | null {
  if (a.type === "BRANCH") return a.branches;
  if (a.type === "ALL" && a.scopeBranchId !== null) return [a.scopeBranchId];
  return null;
}

export function armsOf(a: Audience): Arm[] {
  if (a.type === "MOBILE") return [listArm(a.mobiles)];
  if (a.type === "REGISTRANTS") {
    const cond = and(inArray(R.id, a.registrants.length ? a.registrants : [0]), scopeOf(a));
    return [registrationArm(cond, a.cutoff)];
  }
  const ids = branchesOf(a);
  if (!ids) return [registrationArm(undefined, a.cutoff), preregistrationArm(undefined, a.cutoff)];
  const list = ids.length ? ids : [0];
  // "+ 0": the branch is checked on each row while the phone index gives the order, so each chunk reads
  // forward from the cursor (one pass over the index in all) instead of re-reading the branch's rows.
  const inBranches = sql`(${R.branch_id} + 0) in (${sql.join(list, sql`, `)})`;
  return [
    registrationArm(inBranches, a.cutoff),
    preregistrationArm(
      sql`(${inArray(P.branch_id, list)} or (${P.branch_id} is null and ${inArray(P.nearest_branch_id, list)}))`,
      a.cutoff,
    ),
  ];
}

const scopeOf = (a: Audience) => branchCondition(R.branch_id, { branchId: a.scopeBranchId });

/** The SQL each source of an audience runs per chunk, with its query plan (tests check the plans). */
export function audiencePlans(a: Audience): string[] {
  return armsOf(a).flatMap((arm) => {
    if (!arm.query) return [];
    const { sql: text, params } = arm.query(db, "", PREPARE_CHUNK).toSQL();
    const plan = db.$client.prepare(`explain query plan ${text}`).all(...params) as { detail: string }[];
    return [plan.map((p) => p.detail).join("; ")];
  });
}

/**
 * The next distinct phones after `after` over every source, in phone order:
 * each source gives up to `limit`; the union is complete up to the smallest
 * last phone of a source that gave a full page. `done` when every source ran out.
 */
export function nextPhones(exec: Executor, arms: Arm[], after: string, limit: number) {
  const pages = arms.map((arm) => arm.next(exec, after, limit));
  let bound: string | null = null;
  for (const page of pages) {
    if (page.length < limit) continue;
    const last = page[page.length - 1];
    if (bound === null || last < bound) bound = last;
  }
  const union = [...new Set(pages.flat())].filter((p) => bound === null || p <= bound).sort();
  return { phones: union, done: bound === null };
}

export type AudienceCount = { recipients: number; skipped: number };

/** Counts the distinct valid phones of an audience and the invalid ones skipped, in slices of a few milliseconds. */
export async function countAudience(a: Audience): Promise<AudienceCount> {
  const arms = armsOf(a);
  let after = "";
  let recipients = 0;
  let skipped = 0;
  let deadline = performance.now() + SLICE_MS;
  for (;;) {
    const { phones, done } = nextPhones(db, arms, after, COUNT_STEP);
    for (const p of phones) {
      if (isValid(p)) recipients++;
      else skipped++;
    }
    if (done || !phones.length) return { recipients, skipped };
    after = phones[phones.length - 1];
    if (performance.now() >= deadline) {
      await nextTurn();
      deadline = performance.now() + SLICE_MS;
    }
  }
}

// ---------------------------------------------------------------- checking the choice

/** Branches and customers chosen must exist, and be within the sender's scope. */
export function choiceErrors(exec: Executor, scope: Scope, input: BroadcastInput): FieldErrors {
  const errors: FieldErrors = {};
  if (input.type === "BRANCH") {
    if (!isHeadOffice(scope) && input.branches.some((id) => id !== scope.branchId)) {
      errors.branches = [MSG.branchOutside];
    } else {
      const found = exec
        .select({ id: branches.id })
        .from(branches)
        .where(and(inArray(branches.id, input.branches), isNull(branches.deleted_at)))
        .all();
      if (found.length !== input.branches.length) errors.branches = [MSG.branchUnknown];
    }
  }
  if (input.type === "REGISTRANTS") {
    const found = exec
      .select({ id: R.id })
      .from(R)
      .where(and(inArray(R.id, input.registrants), isNull(R.deleted_at), branchCondition(R.branch_id, scope)))
      .all();
    if (found.length !== input.registrants.length) errors.registrants = [MSG.registrantUnknown];
  }
  return errors;
}

/** The field a "nobody to send to" message belongs under. */
export const NOBODY_FIELD: Record<BroadcastType, string> = {
  ALL: "type",
  BRANCH: "branches",
  REGISTRANTS: "registrants",
  MOBILE: "mobiles",
};

/** Positions a sort key keeps for the entry's place in the list (a typed list holds at most 100,000). */
const PLACES = 2 ** 17;

/** A typed list longer than this is sorted in steps, each in a turn of the event loop of its own. */
const SORT_IN_STEPS = 10_000;

/**
 * Typed numbers, each once, in order. Valid mobiles (ten digits from 9, all that a typed list holds once
 * its schema has read it) are sorted as numbers in a typed array, each keyed by its number less 9e9 and
 * its place in the list (under 2^47, exact in a double), so the text is never compared or made again:
 * about half the time of sorting the text for 100,000 numbers. A long list is keyed, sorted and read
 * back in three turns of the event loop, which the request accepting it would otherwise hold as one.
 * Anything else is sorted as text.
 */
export async function distinctSorted(phones: string[]): Promise<string[]> {
  const step = phones.length > SORT_IN_STEPS ? nextTurn : async () => {};
  if (phones.length > PLACES || !phones.every(isValid)) return [...new Set(phones)].sort();
  const keys = new Float64Array(phones.length);
  for (let i = 0; i < phones.length; i++) keys[i] = lastNine(phones[i]) * PLACES + i;
  await step();
  keys.sort();
  await step();
  const out: string[] = [];
  let last = -1;
  for (let i = 0; i < keys.length; i++) {
    const number = Math.floor(keys[i] / PLACES);
    if (number !== last) out.push(phones[keys[i] - number * PLACES]);
    last = number;
  }
  return out;
}

/** A valid mobile's number less 9e9, read digit by digit (a fifth of the time of Number() on the text). */
function lastNine(phone: string): number {
  let n = 0;
  for (let j = 1; j < 10; j++) n = n * 10 + phone.charCodeAt(j) - 48;
  return n;
}

export async function audienceOf(
  scope: Scope,
  input: BroadcastInput,
  cutoff: string,
): Promise<Audience & { duplicates: number }> {
  const mobiles = await distinctSorted(input.mobiles);
  return {
    type: input.type,
    branches: [...input.branches].sort((x, y) => x - y),
    registrants: [...input.registrants].sort((x, y) => x - y),
    mobiles,
    scopeBranchId: scope.branchId,
    cutoff,
    duplicates: input.mobiles.length - mobiles.length,
  };
}
