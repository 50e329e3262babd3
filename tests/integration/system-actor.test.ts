// Branch scope (app/models/scope.server.ts): what the audit trail says of a change made by the seed or a
// maintenance script, which act as SYSTEM_ACTOR.
import { and, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { HEAD_OFFICE, SYSTEM_ACTOR } from "~/models/scope.server";
import { makeAllocation } from "../fixtures";

describe("the system actor", () => {
  it("is head office, and the audit trail names it 'system' with no user and no address", () => {
    expect(SYSTEM_ACTOR.scope).toEqual(HEAD_OFFICE);
    const pool = makeAllocation({
      type: "preregistration_public",
      branch_id: "",
      date: "2026-11-21",
      amount: "4000",
      count: "1",
      probability: "10",
    });
    const row = db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.action, "allocation.create"), eq(schema.auditLog.entity_id, String(pool.id))))
      .orderBy(desc(schema.auditLog.id))
      .get();
    expect(row).toMatchObject({ user_id: null, user_email: "system", address: null });
  });
});
