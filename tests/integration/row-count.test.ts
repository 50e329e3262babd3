// The live row counts kept by triggers (migration 0009) stay equal to a count of the rows through
// inserts, soft deletes, restores and hard deletes, and head office's lists show them as their total.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { listPreregistrations } from "~/models/preregistration-admin.server";
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
});
