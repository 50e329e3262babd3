// Head office's search with no other filter is answered by the full-text index alone: the same rows,
// order and counts as a lookup of every match, deleted rows left out, pages in order.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { listPreregistrations } from "~/models/preregistration-admin.server";
import { HEAD_OFFICE } from "~/models/scope.server";
import { parseTableParams } from "~/utils/datatable.server";
import { nowIso } from "~/utils/time";
import { makeBranch, makePreregistration } from "../fixtures";

const P = schema.preregistrations;
const params = (q: Record<string, string>) => parseTableParams(new URLSearchParams(q));

/** What a lookup of every live row says: ids newest first whose name holds the term. */
const expected = (term: string) =>
  (
    db.$client
      .prepare("select id from preregistrations where deleted_at is null and name like ? order by id desc")
      .all(`%${term}%`) as { id: number }[]
  ).map((r) => r.id);

describe("head office's list search through the full-text index", () => {
  it("counts and pages the live matches exactly, newest first", () => {
    const branch = makeBranch();
    const made = Array.from({ length: 25 }, (_, i) =>
      makePreregistration({ branch_id: branch.id, name: i % 2 ? `Zebedee Karki ${i}` : `Other Person ${i}` }),
    );
    // Two matching rows deleted, one deleted and restored.
    for (const i of [1, 3, 5]) db.update(P).set({ deleted_at: nowIso() }).where(eq(P.id, made[i].id)).run();
    db.update(P).set({ deleted_at: null }).where(eq(P.id, made[5].id)).run();

    const want = expected("Zebedee");
    expect(want).toHaveLength(10);
    const first = listPreregistrations(HEAD_OFFICE, params({ length: "4" }), { phone: "Zebedee" });
    expect(first.recordsFiltered).toBe(10);
    expect(first.data.map((r) => r.id)).toEqual(want.slice(0, 4));
    const third = listPreregistrations(HEAD_OFFICE, params({ length: "4", start: "8" }), { phone: "Zebedee" });
    expect(third.data.map((r) => r.id)).toEqual(want.slice(8, 10));
    expect(third.recordsTotal).toBe(
      (db.$client.prepare("select count(*) as n from preregistrations where deleted_at is null").get() as { n: number })
        .n,
    );
    // The rows are the list's full rows.
    expect(first.data[0]).toMatchObject({ name: expect.stringContaining("Zebedee"), branch: { title: branch.title } });

    // Another order, or a filter beside the search, goes the general way and agrees.
    const byName = listPreregistrations(HEAD_OFFICE, params({ order: "name", dir: "asc", length: "100" }), {
      phone: "Zebedee",
    });
    expect(byName.recordsFiltered).toBe(10);
    expect(new Set(byName.data.map((r) => r.id))).toEqual(new Set(want));
    const filtered = listPreregistrations(HEAD_OFFICE, params({ length: "100" }), {
      phone: "Zebedee",
      branch: branch.id,
    });
    expect(filtered.data.map((r) => r.id)).toEqual(want);
  });
});
