/**
 * The counter grant's own rule (decision 5), met at the helper itself, whoever calls it: a live public
 * entry of another showroom is granted, once, with its audit row and a point of the user's hourly limit;
 * anything else (an entry made at a branch, a deleted or missing one, one the branch reaches already,
 * head office) is refused and leaves no trace: no grant row, no audit row, no point taken. Past the
 * limit nothing is written either.
 */
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { grantCounterAccess } from "~/models/preregistration.server";
import type { ScopedActor } from "~/models/scope.server";
import { transact } from "~/models/transaction.server";
import { usage } from "~/utils/rate-limit.server";
import { makeBranch, makePreregistration } from "../fixtures";
import { staffWith } from "./catalogue-helpers";

let counter = 0;
let other = 0;
let actor: ScopedActor;

beforeAll(async () => {
  counter = makeBranch().id;
  other = makeBranch().id;
  const staff = await staffWith(["read-registration"], counter);
  actor = { id: staff.user.id, email: staff.user.email, address: null, scope: { branchId: counter } };
});

const grantsOf = (entryId: number) =>
  db
    .select()
    .from(schema.preregistrationGrants)
    .where(eq(schema.preregistrationGrants.preregistration_id, entryId))
    .all();
const auditsOf = (slug: string) =>
  db
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.action, "preregistration.grant"), eq(schema.auditLog.entity_id, slug)))
    .all();
const pointsOf = (who: ScopedActor) => usage("counter-grant", String(who.id)).used;
const grant = (who: ScopedActor, entryId: number) => transact((tx) => grantCounterAccess(tx, who, entryId));

describe("a refused grant leaves no trace", () => {
  const refused: [string, () => { id: number; slug: string }, string][] = [
    [
      "another branch's own entry",
      () => makePreregistration({ branch_id: other, nearest_branch_id: other }),
      "refused",
    ],
    ["the branch's own entry", () => makePreregistration({ branch_id: counter }), "refused"],
    [
      "a deleted public entry",
      () => makePreregistration({ branch_id: null, nearest_branch_id: other, deleted_at: new Date().toISOString() }),
      "refused",
    ],
    [
      "a public entry naming the branch itself",
      () => makePreregistration({ branch_id: null, nearest_branch_id: counter }),
      "reached",
    ],
  ];
  for (const [name, make, reason] of refused) {
    it(`${name}: no grant row, no audit row, no point`, () => {
      const entry = make();
      const before = pointsOf(actor);
      expect(grant(actor, entry.id)).toEqual({ granted: false, reason });
      expect(grantsOf(entry.id)).toEqual([]);
      expect(auditsOf(entry.slug)).toEqual([]);
      expect(pointsOf(actor)).toBe(before);
    });
  }

  it("a missing entry and a head-office caller: nothing written", () => {
    const before = db.select().from(schema.preregistrationGrants).all().length;
    expect(grant(actor, 987_654_321)).toEqual({ granted: false, reason: "refused" });
    const entry = makePreregistration({ branch_id: null, nearest_branch_id: other });
    expect(grant({ ...actor, scope: { branchId: null } }, entry.id)).toEqual({ granted: false, reason: "reached" });
    expect(db.select().from(schema.preregistrationGrants).all().length).toBe(before);
    expect(auditsOf(entry.slug)).toEqual([]);
  });

  it("a public entry of another showroom is granted once: one row, one audit row, one point", () => {
    const entry = makePreregistration({ branch_id: null, nearest_branch_id: other });
    const before = pointsOf(actor);
    expect(grant(actor, entry.id)).toEqual({ granted: true });
    expect(grant(actor, entry.id)).toEqual({ granted: false, reason: "reached" });
    expect(grantsOf(entry.id)).toMatchObject([{ branch_id: counter, granted_by: actor.id }]);
    expect(auditsOf(entry.slug)).toHaveLength(1);
    expect(pointsOf(actor)).toBe(before + 1);
  });
});

describe("grants are few: 20 an hour per user", () => {
  it("the 21st is refused with nothing written, and another user of the branch still may", async () => {
    const staff = await staffWith(["read-registration"], counter);
    const busy: ScopedActor = {
      id: staff.user.id,
      email: staff.user.email,
      address: null,
      scope: { branchId: counter },
    };
    for (let i = 0; i < 20; i++) {
      const entry = makePreregistration({ branch_id: null, nearest_branch_id: other });
      expect(grant(busy, entry.id), `grant ${i + 1}`).toEqual({ granted: true });
    }
    const last = makePreregistration({ branch_id: null, nearest_branch_id: other });
    const refused = grant(busy, last.id);
    expect(refused).toMatchObject({ granted: false, reason: "limited", failure: { code: "rate_limited" } });
    expect(grantsOf(last.id)).toEqual([]);
    expect(auditsOf(last.slug)).toEqual([]);
    expect(grant(actor, last.id)).toEqual({ granted: true });
  });
});
