// A big list's filtered count stops at COUNT_CAP (docs/decisions/0018-request-cost.md): a search
// matching more reads "10,000+" and still pages; one matching fewer is exact; the total stays exact.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@db/index";
import { COUNT_CAP, parseTableParams } from "~/utils/datatable.server";
import { showingLine } from "~/utils/table";
import { makeBranch, makePreregistration } from "../../tests/fixtures";
import { listPreregistrations } from "./preregistration-admin.server";
import { listRegistrations } from "./registration-list.server";

const HEAD = { branchId: null };
const params = (q: Record<string, string>) => parseTableParams(new URLSearchParams({ length: "10", ...q }));

let branch: ReturnType<typeof makeBranch>;

/** `n` live pre-registrations named "<name> <i>" at the branch (one statement; the database's triggers index them). */
function manyNamed(name: string, n: number, first: number) {
  db.$client
    .prepare(
      `with recursive k(i) as (select 1 union all select i + 1 from k where i < ?)
       insert into preregistrations (slug, name, address, phone, citizenship_no, branch_id)
       select printf('cap%s%012d', ?, i), ? || ' ' || i, 'Kathmandu', printf('97%08d', ? + i), printf('55%08d', ? + i), ?
       from k`,
    )
    .run(n, name, name, first, first, branch.id);
}

beforeAll(() => {
  branch = makeBranch();
  manyNamed("Capcount", COUNT_CAP + 5, 0);
  manyNamed("Fewcount", 30, 50_000);
});

describe("a big list's filtered count", () => {
  it("stops at the cap past it, and the first 10,000 still page", () => {
    const common = listPreregistrations(HEAD, params({}), { phone: "Capcount" });
    expect(common).toMatchObject({ recordsFiltered: COUNT_CAP, recordsFilteredCapped: true });
    expect(common.data).toHaveLength(10);
    // The total is every live row, exact.
    expect(common.recordsTotal).toBe(COUNT_CAP + 5 + 30);
    const last = listPreregistrations(HEAD, params({ start: String(COUNT_CAP - 10) }), { phone: "Capcount" });
    expect(last.data).toHaveLength(10);
  });

  it("is exact below the cap", () => {
    const few = listPreregistrations(HEAD, params({}), { phone: "Fewcount" });
    expect(few.recordsFiltered).toBe(30);
    expect(few.recordsFilteredCapped).toBeUndefined();
  });

  it("stops at the cap on a branch's list too (counted by the query, not the index alone)", () => {
    const scoped = listPreregistrations({ branchId: branch.id }, params({}), { phone: "Capcount" });
    expect(scoped).toMatchObject({ recordsFiltered: COUNT_CAP, recordsFilteredCapped: true });
    expect(scoped.recordsTotal).toBe(COUNT_CAP + 5 + 30);
    const filtered = listPreregistrations(HEAD, params({}), { phone: "Capcount", branch: branch.id });
    expect(filtered).toMatchObject({ recordsFiltered: COUNT_CAP, recordsFilteredCapped: true });
    const few = listPreregistrations({ branchId: branch.id }, params({}), { phone: "Fewcount" });
    expect(few).toMatchObject({ recordsFiltered: 30 });
  });

  it("reads '10,000+' on the page", () => {
    expect(showingLine(0, 10, COUNT_CAP, true)).toBe("Showing 1 - 10 of 10,000+ entries");
    expect(showingLine(0, 10, 30)).toBe("Showing 1 - 10 of 30 entries");
  });

  it("of registrations is exact below the cap", () => {
    makePreregistration({ name: "Someone Else" });
    const none = listRegistrations(HEAD, params({ search: "Capcount" }));
    expect(none).toMatchObject({ recordsFiltered: 0, recordsTotal: 0 });
  });
});
