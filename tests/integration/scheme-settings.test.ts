// The fallback tables' page (/admin/scheme/settings): the body is read by the one reader (a text/plain
// or oversize body is refused with a 4xx and changes nothing), rows are conform list fields
// (rows[i].amount / rows[i].weight) whose errors stay under the row as shown, and a save writes its audit row.
import { and, eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { BASE_TABLE_KEYS, DEFAULT_BASE_TABLES, getBaseTable } from "~/models/prize-settings.server";
import { action } from "~/routes/admin.scheme.settings";
import { BASE_TABLE_MESSAGES } from "~/schemas/base-table";
import { call, staffWith } from "../route-helpers";

let cookie: string;

beforeAll(async () => {
  cookie = (await staffWith(["manage-allocation"])).cookie;
});

beforeEach(() => {
  db.delete(schema.settings).where(eq(schema.settings.key, BASE_TABLE_KEYS.second)).run();
});

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  call(
    action,
    new Request("http://localhost/admin/scheme/settings", {
      method: "POST",
      headers: { Cookie: cookie, ...headers },
      body,
    }),
  );

function rowsForm(kind: string, rows: [string, string][]) {
  const form = new URLSearchParams({ intent: kind });
  rows.forEach(([amount, weight], i) => {
    form.set(`rows[${i}].amount`, amount);
    form.set(`rows[${i}].weight`, weight);
  });
  return form;
}

const stored = () => db.select().from(schema.settings).where(eq(schema.settings.key, BASE_TABLE_KEYS.second)).get();

describe("/admin/scheme/settings action", () => {
  it("refuses a text/plain body with 415 and changes nothing", async () => {
    const res = await post("intent=second&rows[0].amount=9000&rows[0].weight=1", { "Content-Type": "text/plain" });
    expect(res.status).toBe(415);
    expect(stored()).toBeUndefined();
    expect(getBaseTable("second")).toEqual(DEFAULT_BASE_TABLES.second);
  });

  it("refuses a body over the form limit with 413 and changes nothing", async () => {
    const body = `${rowsForm("second", [["9000", "1"]]).toString()}&pad=${"x".repeat(70 * 1024)}`;
    const res = await post(body, { "Content-Type": "application/x-www-form-urlencoded" });
    expect(res.status).toBe(413);
    expect(stored()).toBeUndefined();
  });

  it("refuses a form without a table to save with 400", async () => {
    const res = await post(new URLSearchParams({ intent: "first", "rows[0].amount": "9000", "rows[0].weight": "1" }));
    expect(res.status).toBe(400);
    expect(stored()).toBeUndefined();
  });

  it("keeps a row's error under the row as shown (blank rows in between) and stores nothing", async () => {
    const res = await post(
      rowsForm("second", [
        ["4000", "1"],
        ["", ""],
        ["0", "1"],
      ]),
    );
    expect(res.status).toBe(422);
    const body = (await res.json()) as { kind: string; result: { error: Record<string, string[]> } };
    expect(body.kind).toBe("second");
    expect(body.result.error).toEqual({ "rows[2].amount": [BASE_TABLE_MESSAGES.amount] });
    expect(stored()).toBeUndefined();
  });

  it("refuses an empty second-thrill table above the rows", async () => {
    const res = await post(rowsForm("second", [["", ""]]));
    expect(res.status).toBe(422);
    const body = (await res.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error).toEqual({ rows: [BASE_TABLE_MESSAGES.emptySecond] });
  });

  it("saves the rows given, blank rows dropped, with an audit row", async () => {
    const res = await post(
      rowsForm("second", [
        ["", ""],
        ["8000", "1"],
        ["9000", "3"],
      ]),
    );
    expect(res.status).toBe(302);
    expect(getBaseTable("second")).toEqual([
      { amount: 8000, weight: 1 },
      { amount: 9000, weight: 3 },
    ]);
    const audit = db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.entity_type, "setting"), eq(schema.auditLog.entity_id, BASE_TABLE_KEYS.second)))
      .all()
      .at(-1);
    expect(audit?.action).toBe("setting.update");
    expect(JSON.parse(audit!.changes)[BASE_TABLE_KEYS.second].after).toEqual([
      { amount: 8000, weight: 1 },
      { amount: 9000, weight: 3 },
    ]);
  });
});
