// A registration field in one list: the table's columns (drizzle's getTableColumns) walked against
// what create writes, what update writes, what the list, its API and the detail read, and what
// Registrations.xls shows, each with the columns left out on purpose named here. A column added to
// the table and forgotten in one of them fails one of these tests.
import { eq, getTableColumns } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { parseTableParams } from "~/utils/datatable.server";
import type { RegistrationInput } from "~/schemas/registration";
import { makeBikeModel, makeBranch, makePreregistration, makeUser } from "../../tests/fixtures";
import { createRegistration, updateRegistration } from "./registration.server";
import {
  getRegistrationDetail,
  listRegistrations,
  REGISTRATION_COLUMNS,
  registrationSheetPages,
} from "./registration-list.server";

const R = schema.registrations;
const COLUMNS = Object.keys(getTableColumns(R));

/** Set by the server, never typed by staff (so an edit does not change them). */
const NOT_TYPED = [
  "id",
  "slug",
  "phone", // the pre-registration's, verified
  "branch_id", // the pre-registration's or the counter's branch
  "preregistration_id",
  "shared",
  "status",
  "confirmed_at",
  "purchase_date",
  "coupon_amount",
  "coupon_code",
  "share_code",
  "created_by",
  "form_token",
  "created_at",
  "updated_at",
  "deleted_at",
];
/** Empty when a registration is made: filled by the purchase code, the draw, a delete. */
const EMPTY_AT_CREATE = ["confirmed_at", "coupon_amount", "deleted_at"];
/** Never read by the list, its API or the detail: the customer's own link, and the server's own. */
const NOT_LISTED = ["share_code", "created_by", "form_token"];
/** Read for the sheet but shown otherwise: by a title, a label or not at all. */
const NOT_IN_SHEET_AS_IS = [
  "id",
  "bike_model_id", // the model's title
  "branch_id", // the branch's title and city
  "preregistration_id",
  "registration_id", // the referrer's name in "Referred By"
  "payment_mode", // its label
  "status", // its label
  "purchase_date", // as dd/MM/yyyy
  "send_sms",
  "shared", // the first thrill's amount
  "confirmed_at",
  "coupon_amount", // the third thrill's amount
  "created_at",
  "updated_at",
  "deleted_at", // the sheet holds live registrations only
];

let branchId: number;
let actor: { id: number; scope: { branchId: number } };
let models: [number, number];
let n = 0;

function typed(over: Partial<RegistrationInput> = {}): RegistrationInput {
  n++;
  return {
    bill_no: `F${n}B`,
    name: `Field Person ${n}`,
    address: `Ward ${n}, Lalitpur`,
    citizenship_no: `CIT-${n}-77`,
    pan: `PAN${n}9`,
    email: `field${n}@example.test`,
    bike_model_id: models[n % 2],
    engine_no: `ENF${n}X`,
    chasis_no: `CHF${n}X`,
    registration_no: `BA-F${n}`,
    payment_mode: n % 2 ? "CASH" : "SELF_FINANCE",
    note: `Note ${n}`,
    send_sms: n % 2 === 1,
    referred_by: `Friend ${n}`,
    ...over,
  };
}

async function made(over: Partial<RegistrationInput> = {}) {
  const pre = makePreregistration({ branch_id: branchId, is_verified: true, status: "verified", shared: true });
  const res = await createRegistration(actor, pre.slug, typed(over));
  if (!res.ok) throw new Error(res.message);
  return db.select().from(R).where(eq(R.id, res.registration.id)).get()!;
}

beforeAll(async () => {
  branchId = makeBranch({ title: "Fields Motors" }).id;
  models = [makeBikeModel("Fields One").id, makeBikeModel("Fields Two").id];
  actor = { id: (await makeUser("branch-staff", branchId)).id, scope: { branchId } };
});

describe("one list of registration fields", () => {
  it("create writes every column but those empty until later", async () => {
    const referrer = await made();
    const row = await made({ registration_id: referrer.id, form_token: `token-${n}` });
    const empty = COLUMNS.filter((c) => row[c as keyof typeof row] === null);
    expect(empty.sort()).toEqual([...EMPTY_AT_CREATE].sort());
  });

  it("update writes every typed column", async () => {
    const [referrer, other] = [await made(), await made()];
    const before = await made({ registration_id: referrer.id });
    const res = updateRegistration(actor, before.slug, { ...typed(), registration_id: other.id });
    if (!res.ok) throw new Error(res.message);
    const after = db.select().from(R).where(eq(R.id, before.id)).get()!;
    const unchanged = COLUMNS.filter((c) => !NOT_TYPED.includes(c)).filter(
      (c) => after[c as keyof typeof after] === before[c as keyof typeof before],
    );
    expect(unchanged, "typed columns an edit did not write").toEqual([]);
    const typedColumns = COLUMNS.filter((c) => !NOT_TYPED.includes(c));
    expect(typedColumns.length).toBe(15);
  });

  it("the list, its API and the detail read every column but those left out", async () => {
    const row = await made();
    // The branch is this file's own: its rows are the ones made here.
    const params = parseTableParams(new URLSearchParams({ length: "100" }));
    const listed = listRegistrations(actor.scope, params, {}).data.find((r) => r.slug === row.slug)!;
    const detail = getRegistrationDetail(actor.scope, row.slug)!;
    const expected = COLUMNS.filter((c) => !NOT_LISTED.includes(c));
    for (const [name, read] of [
      ["list", listed],
      ["detail", detail],
    ] as const) {
      const missing = expected.filter((c) => !(c in read));
      expect(missing, `${name} leaves out`).toEqual([]);
      for (const c of NOT_LISTED) expect(c in read, `${name} reads ${c}`).toBe(false);
    }
  });

  it("Registrations.xls shows every column's value but those shown otherwise", async () => {
    const referrer = await made();
    const row = await made({ registration_id: referrer.id });
    const rows = [];
    for await (const page of registrationSheetPages(actor.scope, {})) rows.push(...page);
    const sheetRow = rows.find((r) => r.slug === row.slug)!;
    const cells = REGISTRATION_COLUMNS.map((c) => String(c.value(sheetRow) ?? ""));
    const shown = COLUMNS.filter((c) => !NOT_LISTED.includes(c) && !NOT_IN_SHEET_AS_IS.includes(c));
    const missing = shown.filter((c) => !cells.includes(String(row[c as keyof typeof row])));
    expect(missing, "columns whose value is in no cell of the sheet").toEqual([]);
  });
});
