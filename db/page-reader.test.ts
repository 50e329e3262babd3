import { and, desc, eq, getTableColumns, isNull, lt } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { makeBranch } from "../tests/fixtures";
import { makeRegistration } from "../tests/referral-fixtures";
import { newestFirstPages, readRawRows, rowDecoder } from "./page-reader";

const { registrations: R, branches: B } = schema;

describe("the page reader", () => {
  it("reads in its thread the rows the connection reads, each field read as drizzle reads it", async () => {
    const branch = makeBranch();
    const drawn = makeRegistration(branch.id, { status: "drawn" });
    makeRegistration(branch.id, { deleted_at: new Date().toISOString() });
    const selection = { ...getTableColumns(R), branch_title: B.title };
    const query = () => db.select(selection).from(R).leftJoin(B, eq(B.id, R.branch_id)).orderBy(desc(R.id)).limit(50);

    const here = query().all();
    const there = (await readRawRows(query())).map(rowDecoder<(typeof here)[number]>(selection));
    expect(there).toEqual(here);
    expect(there.some((r) => r.id === drawn.id && r.branch_title === branch.title)).toBe(true);
    // Driver values are mapped (a flag is a boolean, as on the connection), null stays null.
    expect(typeof there[0].send_sms).toBe("boolean");
    expect(there.some((r) => r.deleted_at === null) && there.some((r) => r.deleted_at !== null)).toBe(true);
  });

  it("sees what the connection committed before the read", async () => {
    const branch = makeBranch();
    const count = async () =>
      (await readRawRows(db.select({ id: R.id }).from(R).where(eq(R.branch_id, branch.id)))).length;
    expect(await count()).toBe(0);
    makeRegistration(branch.id);
    expect(await count()).toBe(1);
  });

  it("a query the database refuses rejects with its message; the next read is answered", async () => {
    const bad = { toSQL: () => ({ sql: "select nope from registrations", params: [] }) };
    await expect(readRawRows(bad)).rejects.toThrow(/no such column: nope/);
    expect(await readRawRows({ toSQL: () => ({ sql: "select 1 + ?", params: [41] }) })).toEqual([[42]]);
  });
});

describe("a download's pages", () => {
  const selection = { id: R.id, slug: R.slug, branch_title: B.title };
  type Row = { id: number; slug: string; branch_title: string | null };
  /** The live registrations of a branch below `before`, newest first, `size` at a time. */
  const pagesOf = (branchId: number, size: number) =>
    newestFirstPages<Row>(
      selection,
      (before) =>
        db
          .select(selection)
          .from(R)
          .leftJoin(B, eq(B.id, R.branch_id))
          .where(and(eq(R.branch_id, branchId), isNull(R.deleted_at), lt(R.id, before)))
          .orderBy(desc(R.id))
          .limit(size),
      size,
    );
  const newest = (branchId: number) =>
    db
      .select(selection)
      .from(R)
      .leftJoin(B, eq(B.id, R.branch_id))
      .where(and(eq(R.branch_id, branchId), isNull(R.deleted_at)))
      .orderBy(desc(R.id))
      .all();
  const collect = async (pages: AsyncIterable<Row[]>) => {
    const out: Row[][] = [];
    for await (const page of pages) out.push(page);
    return out;
  };

  it("are every row newest first, a page at a time, the worker moving the cursor", async () => {
    const branch = makeBranch();
    for (let i = 0; i < 7; i++) makeRegistration(branch.id);
    const pages = await collect(pagesOf(branch.id, 2));
    expect(pages.map((p) => p.length)).toEqual([2, 2, 2, 1]);
    expect(pages.flat()).toEqual(newest(branch.id));
    // A last page that is full ends with an empty read.
    const other = makeBranch();
    for (let i = 0; i < 4; i++) makeRegistration(other.id);
    expect((await collect(pagesOf(other.id, 2))).map((p) => p.length)).toEqual([2, 2]);
  });

  it("are read two pages ahead of the page taken, no further", async () => {
    const branch = makeBranch();
    for (let i = 0; i < 12; i++) makeRegistration(branch.id);
    const want = newest(branch.id);
    const pages = pagesOf(branch.id, 2);
    const first = await pages.next();
    expect(first.value).toEqual(want.slice(0, 2));
    // The worker has read the next two pages by now; whatever it reads after this sees no rows.
    await new Promise((r) => setTimeout(r, 300));
    db.update(R).set({ deleted_at: new Date().toISOString() }).where(eq(R.branch_id, branch.id)).run();
    const rest = (await collect({ [Symbol.asyncIterator]: () => pages })).flat();
    expect(rest).toEqual(want.slice(2, 6));
  });

  it("may be left half-way; two readers take turns, and the next read is answered", async () => {
    const a = makeBranch();
    const b = makeBranch();
    for (let i = 0; i < 9; i++) {
      makeRegistration(a.id);
      makeRegistration(b.id);
    }
    for await (const page of pagesOf(a.id, 2)) {
      expect(page).toEqual(newest(a.id).slice(0, 2));
      break;
    }
    const [fromA, fromB] = await Promise.all([collect(pagesOf(a.id, 3)), collect(pagesOf(b.id, 2))]);
    expect(fromA.flat()).toEqual(newest(a.id));
    expect(fromB.flat()).toEqual(newest(b.id));
    expect(await readRawRows({ toSQL: () => ({ sql: "select 1 + ?", params: [1] }) })).toEqual([[2]]);
  });

  it("need the cursor in the page's query once, and the id in its selection", async () => {
    const noCursor = newestFirstPages(
      selection,
      () => db.select(selection).from(R).leftJoin(B, eq(B.id, R.branch_id)),
      2,
    );
    await expect(noCursor.next()).rejects.toThrow(/cursor/);
    const noId = newestFirstPages(
      { slug: R.slug },
      (before) => db.select({ slug: R.slug }).from(R).where(lt(R.id, before)),
      2,
    );
    await expect(noId.next()).rejects.toThrow(/the id/);
  });
});
