// The live row counts kept by triggers (migration 0009) stay equal to a count of the rows through
// inserts, soft deletes, restores and hard deletes, and head office's lists show them as their total.
import { and, eq, isNull, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { listPreregistrations } from "~/models/preregistration-admin.server";
import { preregistrationScope } from "~/models/preregistration-reach.server";
import { liveCount } from "~/models/row-count.server";
import { HEAD_OFFICE } from "~/models/scope.server";
import { parseTableParams } from "~/utils/datatable.server";
import { nowIso } from "~/utils/time";
import { makeBranch, makePreregistration } from "../fixtures";

const counted = (table: "preregistrations" | "registrations") =>
  (db.$client.prepare(`select count(*) as n from ${table} where deleted_at is null`).get() as { n: number }).n;

describe("live row counts", () => {
  it("follow inserts, soft deletes, restores and hard deletes of pre-registrations", () => {
    expect(liveCount("preregistrations")).toBe(counted("preregistrations"));
    const branch = makeBranch();
    const made = Array.from({ length: 5 }, () => makePreregistration({ branch_id: branch.id }));
    expect(liveCount("preregistrations")).toBe(counted("preregistrations"));

    const P = schema.preregistrations;
    db.update(P).set({ deleted_at: nowIso() }).where(eq(P.id, made[0].id)).run();
    db.update(P).set({ deleted_at: nowIso() }).where(eq(P.id, made[1].id)).run();
    // Deleting again changes nothing; another column's update neither.
    db.update(P).set({ deleted_at: nowIso() }).where(eq(P.id, made[1].id)).run();
    db.update(P).set({ name: "Renamed" }).where(eq(P.id, made[2].id)).run();
    expect(liveCount("preregistrations")).toBe(counted("preregistrations"));

    db.update(P).set({ deleted_at: null }).where(eq(P.id, made[0].id)).run();
    expect(liveCount("preregistrations")).toBe(counted("preregistrations"));

    // A hard delete of a live and of a deleted row.
    db.delete(P).where(eq(P.id, made[3].id)).run();
    db.delete(P).where(eq(P.id, made[1].id)).run();
    expect(liveCount("preregistrations")).toBe(counted("preregistrations"));

    // Rows inserted already deleted are not counted.
    makePreregistration({ branch_id: branch.id, deleted_at: nowIso() });
    expect(liveCount("preregistrations")).toBe(counted("preregistrations"));
    expect(liveCount("registrations")).toBe(counted("registrations"));
  });

  it("are head office's list total, and a branch's list still counts its own", () => {
    const branch = makeBranch();
    makePreregistration({ branch_id: branch.id });
    const params = parseTableParams(new URLSearchParams());
    const all = listPreregistrations(HEAD_OFFICE, params, {});
    expect(all.recordsTotal).toBe(counted("preregistrations"));
    expect(all.recordsFiltered).toBe(all.recordsTotal);
    const own = listPreregistrations({ branchId: branch.id }, params, {});
    expect(own.recordsTotal).toBe(1);
    // The kept count is read, not recomputed: move it and the list follows (then put it back).
    db.run(sql`update row_counts set n = n + 7 where key = 'preregistrations'`);
    expect(listPreregistrations(HEAD_OFFICE, params, {}).recordsTotal).toBe(counted("preregistrations") + 7);
    db.run(sql`update row_counts set n = n - 7 where key = 'preregistrations'`);
  });

  it("of a branch is what its reach rule reaches: made there, public naming it, public granted to it, each once", () => {
    const [mine, other] = [makeBranch(), makeBranch()];
    const P = schema.preregistrations;
    const grant = (id: number, branchId: number) =>
      db.insert(schema.preregistrationGrants).values({ branch_id: branchId, preregistration_id: id }).run();
    makePreregistration({ branch_id: mine.id });
    makePreregistration({ branch_id: mine.id, nearest_branch_id: other.id });
    makePreregistration({ branch_id: mine.id, deleted_at: nowIso() });
    makePreregistration({ nearest_branch_id: mine.id });
    makePreregistration({ nearest_branch_id: mine.id, deleted_at: nowIso() });
    // Granted: naming another branch, naming none, naming this one (counted once), deleted.
    grant(makePreregistration({ nearest_branch_id: other.id }).id, mine.id);
    grant(makePreregistration({}).id, mine.id);
    grant(makePreregistration({ nearest_branch_id: mine.id }).id, mine.id);
    grant(makePreregistration({ nearest_branch_id: other.id, deleted_at: nowIso() }).id, mine.id);
    // Not reached: made at the other branch though naming this one, or granted to the other.
    makePreregistration({ branch_id: other.id, nearest_branch_id: mine.id });
    grant(makePreregistration({ branch_id: other.id }).id, other.id);
    grant(makePreregistration({ nearest_branch_id: other.id }).id, other.id);

    const params = parseTableParams(new URLSearchParams());
    for (const branch of [mine, other]) {
      const scope = { branchId: branch.id };
      const reached = db
        .select({ n: sql<number>`count(*)` })
        .from(P)
        .where(and(isNull(P.deleted_at), preregistrationScope(scope)))
        .get()!.n;
      expect(listPreregistrations(scope, params, {}).recordsTotal).toBe(reached);
    }
    expect(listPreregistrations({ branchId: mine.id }, params, {}).recordsTotal).toBe(6);
  });
});
