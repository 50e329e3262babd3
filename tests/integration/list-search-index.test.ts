// Head office's search with no other filter is answered by the full-text index alone (pre-registrations
// and registrations): the same rows, order and counts as a lookup of every match, deleted rows left out,
// pages in order.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { DIGITS_PEEK } from "~/models/fts-search.server";
import { findAtCounter, listPreregistrations } from "~/models/preregistration-admin.server";
import { listDeletedRegistrations, listRegistrations } from "~/models/registration-list.server";
import { HEAD_OFFICE } from "~/models/scope.server";
import { parseTableParams } from "~/utils/datatable.server";
import { nowIso } from "~/utils/time";
import { makeBranch, makePreregistration } from "../fixtures";
import { makeRegistration } from "../referral-fixtures";

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

describe("head office's registration search through the full-text index", () => {
  const R = schema.registrations;
  /** Live registrations newest first whose name holds the term, as a lookup of every row says. */
  const expectedRegistrations = (term: string) =>
    (
      db.$client
        .prepare("select id from registrations where deleted_at is null and name like ? order by id desc")
        .all(`%${term}%`) as { id: number }[]
    ).map((r) => r.id);
  const ids = (t: { data: { id: number }[] }) => t.data.map((r) => r.id);

  it("counts and pages the live matches exactly, newest first; a branch, a filter or another order agree", () => {
    const a = makeBranch();
    const b = makeBranch();
    const made = Array.from({ length: 14 }, (_, i) =>
      makeRegistration(i % 3 ? a.id : b.id, { name: i % 2 ? `Quillon Magar ${i}` : `Other Buyer ${i}` }),
    );
    for (const i of [1, 3]) db.update(R).set({ deleted_at: nowIso() }).where(eq(R.id, made[i].id)).run();

    const want = expectedRegistrations("Quillon");
    expect(want).toHaveLength(5);
    const first = listRegistrations(HEAD_OFFICE, params({ length: "2" }), { search: "Quillon" });
    expect(first.recordsFiltered).toBe(5);
    expect(ids(first)).toEqual(want.slice(0, 2));
    expect(ids(listRegistrations(HEAD_OFFICE, params({ length: "2", start: "4" }), { search: "Quillon" }))).toEqual(
      want.slice(4),
    );
    expect(first.recordsTotal).toBe(
      (db.$client.prepare("select count(*) as n from registrations where deleted_at is null").get() as { n: number }).n,
    );
    expect(first.data[0]).toMatchObject({
      name: expect.stringContaining("Quillon"),
      branch: { title: expect.any(String) },
    });

    const inA = new Set(made.filter((r) => r.branch_id === a.id).map((r) => r.id));
    expect(ids(listRegistrations({ branchId: a.id }, params({ length: "100" }), { search: "Quillon" }))).toEqual(
      want.filter((id) => inA.has(id)),
    );
    expect(ids(listRegistrations(HEAD_OFFICE, params({ length: "100" }), { search: "Quillon", branch: b.id }))).toEqual(
      want.filter((id) => !inA.has(id)),
    );
    const byName = listRegistrations(HEAD_OFFICE, params({ order: "name", dir: "asc", length: "100" }), {
      search: "Quillon",
    });
    expect(new Set(ids(byName))).toEqual(new Set(want));
    // The trash is searched among the deleted ones.
    expect(new Set(ids(listDeletedRegistrations(HEAD_OFFICE, params({}), { search: "Quillon" })))).toEqual(
      new Set([made[1].id, made[3].id]),
    );
  });

  it("finds a full phone number through the phone index, in any form, and part of a number through the index", () => {
    const branch = makeBranch();
    const bought = makeRegistration(branch.id);
    const other = makeRegistration(branch.id);
    for (const term of [bought.phone, `+977-${bought.phone}`, `${bought.phone.slice(0, 3)} ${bought.phone.slice(3)}`]) {
      expect(ids(listRegistrations(HEAD_OFFICE, params({}), { search: term })), term).toEqual([bought.id]);
    }
    expect(
      ids(listRegistrations(HEAD_OFFICE, params({ length: "100" }), { search: bought.phone.slice(2, 9) })),
    ).toContain(bought.id);
    // A deleted registration is not found by its phone.
    db.update(R).set({ deleted_at: nowIso() }).where(eq(R.id, other.id)).run();
    expect(ids(listRegistrations(HEAD_OFFICE, params({}), { search: other.phone }))).toEqual([]);
    // A term with nothing the indexes can find matches nothing, though the field refuses it first.
    expect(listRegistrations(HEAD_OFFICE, params({}), { search: "Cu" }).recordsFiltered).toBe(0);
  });
});

describe("a branch's list search through the full-text index and the branch's reach", () => {
  it("finds the entries the branch reaches, newest first, as the general way does, each once", () => {
    const a = makeBranch();
    const b = makeBranch();
    const name = (i: number) => `Yarlung Tamang ${i}`;
    const atA = makePreregistration({ branch_id: a.id, name: name(1) });
    const nearA = makePreregistration({ branch_id: null, nearest_branch_id: a.id, name: name(2) });
    const nearAGranted = makePreregistration({ branch_id: null, nearest_branch_id: a.id, name: name(3) });
    const nearBGranted = makePreregistration({ branch_id: null, nearest_branch_id: b.id, name: name(4) });
    makePreregistration({ branch_id: b.id, name: name(5) });
    makePreregistration({ branch_id: null, nearest_branch_id: b.id, name: name(6) });
    const deleted = makePreregistration({ branch_id: a.id, name: name(7) });
    makePreregistration({ branch_id: a.id, name: "Someone Else" });
    db.update(P).set({ deleted_at: nowIso() }).where(eq(P.id, deleted.id)).run();
    const staffOfA = { id: null, email: "counter@a", address: null, scope: { branchId: a.id } };
    findAtCounter(staffOfA, nearAGranted.phone);
    findAtCounter(staffOfA, nearBGranted.phone);

    const want = [nearBGranted, nearAGranted, nearA, atA].map((r) => r.id);
    const first = listPreregistrations(staffOfA.scope, params({ length: "3" }), { phone: "Yarlung" });
    expect(first.recordsFiltered).toBe(4);
    expect(first.data.map((r) => r.id)).toEqual(want.slice(0, 3));
    const next = listPreregistrations(staffOfA.scope, params({ length: "3", start: "3" }), { phone: "Yarlung" });
    expect(next.data.map((r) => r.id)).toEqual(want.slice(3));
    expect(first.recordsTotal).toBe(listPreregistrations(staffOfA.scope, params({}), {}).recordsTotal);
    // The general way (another order) agrees.
    const general = listPreregistrations(staffOfA.scope, params({ order: "id", dir: "asc", length: "100" }), {
      phone: "Yarlung",
    });
    expect(general.data.map((r) => r.id)).toEqual([...want].reverse());
  });
});
