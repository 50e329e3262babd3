// Head office's search with no other filter is answered by the full-text index alone: the same rows,
// order and counts as a lookup of every match, deleted rows left out, pages in order.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { DIGITS_PEEK, listPreregistrations } from "~/models/preregistration-admin.server";
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

  it("counts a part of a number by its first read below DIGITS_PEEK matches, and reads again past it", () => {
    const branch = makeBranch();
    /** `n` live rows whose citizenship numbers end in `digits` (one statement; the triggers index them). */
    const numbered = (digits: string, n: number, firstPhone: number) =>
      db.$client
        .prepare(
          `with recursive k(i) as (select 1 union all select i + 1 from k where i < ?)
           insert into preregistrations (slug, name, address, phone, citizenship_no, branch_id)
           select printf('dg%s%06d', ?, i), 'Digit Person', 'Kathmandu', printf('96%08d', ? + i), printf('%04d', i) || ?, ?
           from k`,
        )
        .run(n, digits, firstPhone, digits, branch.id);
    numbered("886644", DIGITS_PEEK + 5, 100_000);
    numbered("553311", 7, 200_000);
    const byNumber = (term: string) =>
      (
        db.$client
          .prepare(
            "select id from preregistrations where deleted_at is null and (citizenship_no like ? or phone like ?) order by id desc",
          )
          .all(`%${term}%`, `%${term}%`) as { id: number }[]
      ).map((r) => r.id);

    const few = listPreregistrations(HEAD_OFFICE, params({ length: "5" }), { phone: "553311" });
    expect(few.recordsFiltered).toBe(7);
    expect(few.data.map((r) => r.id)).toEqual(byNumber("553311").slice(0, 5));

    const want = byNumber("886644");
    expect(want).toHaveLength(DIGITS_PEEK + 5);
    const first = listPreregistrations(HEAD_OFFICE, params({ length: "10" }), { phone: "886644" });
    expect(first.recordsFiltered).toBe(DIGITS_PEEK + 5);
    expect(first.data.map((r) => r.id)).toEqual(want.slice(0, 10));
    const inside = listPreregistrations(HEAD_OFFICE, params({ length: "10", start: String(DIGITS_PEEK - 10) }), {
      phone: "886644",
    });
    expect(inside.data.map((r) => r.id)).toEqual(want.slice(DIGITS_PEEK - 10, DIGITS_PEEK));
    const past = listPreregistrations(HEAD_OFFICE, params({ length: "10", start: String(DIGITS_PEEK - 5) }), {
      phone: "886644",
    });
    expect(past.recordsFiltered).toBe(DIGITS_PEEK + 5);
    expect(past.data.map((r) => r.id)).toEqual(want.slice(DIGITS_PEEK - 5, DIGITS_PEEK + 5));
  });
});
