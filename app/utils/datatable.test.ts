import { count, like, type SQL } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { parseTableParams, runTable } from "./datatable.server";
import { showingLine } from "./table";
import { makeBranch } from "../../tests/fixtures";

const { branches } = schema;

function table(query: string) {
  return runTable(parseTableParams(new URLSearchParams(query)), {
    orderable: { title: branches.title, id: branches.id },
    defaultOrder: { column: "id", dir: "asc" },
    base: [],
    search: [branches.title, branches.city],
    columnSearch: { city: branches.city },
    count: (where) => db.select({ n: count() }).from(branches).where(where).get()!.n,
    rows: branchPage,
  });
}

/** A page of branches, as a list's `rows` reads it. */
function branchPage(where: SQL | undefined, orderBy: SQL[], limit: number, offset: number) {
  return db
    .select({ id: branches.id, title: branches.title, city: branches.city })
    .from(branches)
    .where(where)
    .orderBy(...orderBy)
    .limit(limit)
    .offset(offset)
    .all();
}

describe("DataTables protocol", () => {
  for (let i = 1; i <= 23; i++)
    makeBranch({ title: `DT Branch ${String(i).padStart(2, "0")}`, city: i % 2 ? "Pokhara" : "Butwal" });

  it("pages by 10 and counts", () => {
    const first = table("draw=3&start=0&length=10");
    expect(first.draw).toBe(3);
    expect(first.data).toHaveLength(10);
    expect(first.recordsTotal).toBeGreaterThanOrEqual(23);
    expect(first.recordsFiltered).toBe(23);
    const last = table("start=20");
    expect(last.data).toHaveLength(3);
    expect(first.input).toEqual({ draw: "3", start: "0", length: "10" });
  });

  it("searches globally and per column, and orders", () => {
    const r = table(
      "search[value]=Pokhara&order[0][column]=0&order[0][dir]=desc&columns[0][data]=title&columns[0][search][value]=",
    );
    expect(r.recordsFiltered).toBe(12);
    expect(r.recordsTotal).toBe(23);
    expect(r.data[0].title).toBe("DT Branch 23");
    const col = table("columns[0][data]=city&columns[0][search][value]=But");
    expect(col.recordsFiltered).toBe(11);
    const short = table("search=branch 0&order=title&dir=asc");
    expect(short.data[0].title).toBe("DT Branch 01");
    expect(short.recordsFiltered).toBe(9);
  });

  it("treats LIKE wildcards in a search as text and caps the page length", () => {
    expect(table("search=%").recordsFiltered).toBe(0);
    makeBranch({ title: "100% Motors", city: "Hetauda" });
    expect(table("search=100%").data.map((r) => r.title)).toEqual(["100% Motors"]);
    expect(table("search=_").recordsFiltered).toBe(0);
    expect(parseTableParams(new URLSearchParams("length=100000")).length).toBe(100);
    expect(parseTableParams(new URLSearchParams("length=-1")).length).toBe(10);
  });

  it("counts the rows once when nothing narrows the base, and not at all when the total is kept", () => {
    const counted: string[] = [];
    const run = (query: string, total?: () => number) =>
      runTable(parseTableParams(new URLSearchParams(query)), {
        orderable: { id: branches.id },
        defaultOrder: { column: "id", dir: "asc" },
        base: [like(branches.title, "DT Branch%"), undefined],
        filters: [undefined],
        search: [branches.title],
        total,
        count: (where) => {
          counted.push(where ? "counted" : "all");
          return db.select({ n: count() }).from(branches).where(where).get()!.n;
        },
        rows: branchPage,
      });
    const plain = run("");
    expect(plain).toMatchObject({ recordsTotal: 23, recordsFiltered: 23 });
    expect(counted).toHaveLength(1);
    counted.length = 0;
    expect(run("", () => 23)).toMatchObject({ recordsTotal: 23, recordsFiltered: 23 });
    expect(counted).toHaveLength(0);
    expect(run("search=Branch 1", () => 23)).toMatchObject({ recordsTotal: 23, recordsFiltered: 10 });
    expect(counted).toHaveLength(1);
  });

  it("writes the info line", () => {
    expect(showingLine(0, 10, 23)).toBe("Showing 1 - 10 of 23 entries");
    expect(showingLine(20, 3, 23)).toBe("Showing 21 - 23 of 23 entries");
    expect(showingLine(0, 0, 0)).toBe("Showing 0 - 0 of 0 entries");
  });
});
