import { desc, eq, getTableColumns } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { makeBranch } from "../tests/fixtures";
import { makeRegistration } from "../tests/referral-fixtures";
import { readRawRows, rowDecoder } from "./page-reader";

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
