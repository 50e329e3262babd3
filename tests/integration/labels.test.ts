// The one label table per enumeration (app/utils/labels.ts): every value the database or a form
// can hold has an English and a Nepali label, and the API and the downloads show them.
import XLSX from "sheetjs-style";
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { db, schema } from "@db/index";
import { loader as regDownload } from "~/routes/api.v1.registration.download";
import { loader as regList } from "~/routes/api.v1.registration";
import { loader as regOne } from "~/routes/api.v1.registration.$slug";
import { SMS_PURPOSES } from "~/schemas/sms";
import { allocationSchema } from "~/schemas/allocation";
import { broadcastSchema } from "~/schemas/broadcast";
import { preregistrationSchema } from "~/schemas/preregistration";
import { registrationSchema } from "~/schemas/registration";
import { testRideSchema } from "~/schemas/test-ride";
import { userCreateSchema } from "~/schemas/user";
import { issueToken } from "~/http/api.server";
import { randomSlug } from "~/utils/crypto.server";
import { label, LABELS, withLabels, type Enumeration } from "~/utils/labels";
import { makeBikeModel, makeBranch, makePreregistration, makeUser } from "../fixtures";

/** The values of the first enum found inside a zod schema (through optional, default, pipe, preprocess, object, effects). */
function zodEnum(s: z.ZodType, field?: string): string[] {
  const seen = new Set<unknown>();
  const walk = (node: unknown): string[] | null => {
    if (!node || typeof node !== "object" || seen.has(node)) return null;
    seen.add(node);
    const def = (node as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
    if (!def) return null;
    if (def.type === "enum") return Object.values(def.entries as Record<string, string>);
    if (field && def.type === "object") return walk((def.shape as Record<string, unknown>)[field]);
    for (const k of ["innerType", "in", "out", "schema"]) {
      const found = walk(def[k]);
      if (found) return found;
    }
    return null;
  };
  const values = walk(s);
  if (!values) throw new Error(`no enum found for ${field}`);
  return values;
}

const SOURCES: [Enumeration, string[]][] = [
  ["payment_mode", schema.registrations.payment_mode.enumValues],
  ["payment_mode", zodEnum(registrationSchema, "payment_mode")],
  ["registration_status", schema.registrations.status.enumValues],
  ["preregistration_status", schema.preregistrations.status.enumValues],
  ["source", zodEnum(preregistrationSchema, "source")],
  ["test_ride_type", schema.testRides.type.enumValues],
  ["test_ride_type", zodEnum(testRideSchema, "type")],
  ["sex", schema.users.sex.enumValues],
  ["sex", zodEnum(userCreateSchema, "sex")],
  ["allocation_type", schema.allocations.type.enumValues],
  ["allocation_type", zodEnum(allocationSchema, "type")],
  ["draw_entry", schema.draws.entry_type.enumValues],
  ["draw_outcome", schema.draws.outcome.enumValues],
  ["allocation_type", schema.draws.pool_type.enumValues],
  ["broadcast_type", schema.smsBroadcasts.type.enumValues],
  ["broadcast_type", zodEnum(broadcastSchema, "type")],
  ["sms_status", schema.smsMessages.status.enumValues],
  ["sms_purpose", [...SMS_PURPOSES]],
];

describe("label tables", () => {
  it.each(SOURCES)("every %s value has an English and a Nepali label", (enumeration, values) => {
    expect(values.length).toBeGreaterThan(0);
    const table = LABELS[enumeration] as Record<string, { en: string; ne: string }>;
    for (const v of values) {
      expect(table[v], `${enumeration}.${v}`).toBeDefined();
      expect(table[v].en.trim(), `${enumeration}.${v} en`).not.toBe("");
      expect(table[v].ne, `${enumeration}.${v} ne`).toMatch(/[\u0900-\u097F]/);
      // A label is words, not the stored code.
      expect(table[v].en).not.toMatch(/_/);
    }
  });

  it("gives the label in either language and keeps an unknown value as it is", () => {
    expect(label("payment_mode", "CASH_EXCHANGE")).toBe("Cash + Exchange");
    expect(label("payment_mode", "CASH_EXCHANGE", "ne")).toBe("नगद + एक्सचेन्ज");
    expect(label("test_ride_type", "TESTRIDE")).toBe("Test Ride");
    expect(label("source", "SOMETHING ELSE")).toBe("SOMETHING ELSE");
    expect(label("source", null)).toBe("");
  });

  it("adds *_label beside enumerated values at any depth, keeping the raw values", () => {
    expect(
      withLabels({ data: [{ payment_mode: "FINANCE", status: "drawn", preregistration: { status: "purchased" } }] }),
    ).toEqual({
      data: [
        {
          payment_mode: "FINANCE",
          payment_mode_label: "Finance",
          status: "drawn",
          status_label: "Coupon drawn",
          preregistration: { status: "purchased", status_label: "Purchased" },
        },
      ],
    });
    // A field of the same name holding something else gets no label.
    expect(withLabels({ type: "video" })).toEqual({ type: "video" });
  });
});

describe("labels in the API and the downloads", () => {
  let token = "";
  let slug = "";
  let branchId = 0;
  beforeAll(async () => {
    const branch = makeBranch({ title: "Label Branch" });
    branchId = branch.id;
    const model = makeBikeModel("Label Model");
    const pre = makePreregistration({ branch_id: branch.id, nearest_branch_id: branch.id, status: "purchased" });
    slug = randomSlug();
    db.insert(schema.registrations)
      .values({
        slug,
        bill_no: `LB-${pre.id}`,
        name: "Label Buyer",
        address: "Patan",
        citizenship_no: "1234567890",
        phone: pre.phone,
        bike_model_id: model.id,
        engine_no: `LEN-${pre.id}`,
        chasis_no: `LCH-${pre.id}`,
        registration_no: `LRG-${pre.id}`,
        payment_mode: "SELF_FINANCE_EXCHANGE",
        branch_id: branch.id,
        preregistration_id: pre.id,
        purchase_date: "2026-11-20",
        coupon_code: `LCP-${pre.id}`,
      })
      .run();
    const admin = await makeUser("super-admin", null);
    token = issueToken(admin.id, false).token;
  });
  const get = (path: string, params: Record<string, string> = {}) => ({
    request: new Request(`http://localhost${path}`, { headers: { Authorization: `Bearer ${token}` } }),
    context: { clientAddress: "10.9.0.3" },
    params,
  });

  it("a list answer and a record answer carry payment_mode_label and status_label", async () => {
    const list = (await regList(get(`/api/v1/registration?branch=${branchId}`))) as Response;
    const body = await list.json();
    const row = body.data.find((r: { slug: string }) => r.slug === slug);
    expect(row.payment_mode).toBe("SELF_FINANCE_EXCHANGE");
    expect(row.payment_mode_label).toBe("Self Finance + Exchange");
    expect(row.status_label).toBe("Waiting for the customer's code");

    const one = (await regOne(get(`/api/v1/registration/${slug}`, { slug }))) as Response;
    const record = (await one.json()).data;
    expect(record.payment_mode).toBe("SELF_FINANCE_EXCHANGE");
    expect(record.payment_mode_label).toBe("Self Finance + Exchange");
  });

  it("the Registrations.xls cell shows the label", async () => {
    const res = (await regDownload(get(`/api/v1/registration/download?branch=${branchId}`))) as Response;
    const wb = XLSX.read(Buffer.from(await res.arrayBuffer()), { type: "buffer" });
    const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(wb.Sheets[wb.SheetNames[0]]);
    const row = rows.find((r) => r["Name"] === "Label Buyer")!;
    expect(row["Payment Mode"]).toBe("Self Finance + Exchange");
    expect(row["Status"]).toBe("Waiting for the customer's code");
    expect(row["Date of Purchase"]).toBe("2026/11/20");
  });
});

describe("field errors speak the form's labels", () => {
  it("a missing chassis number is 'Chassis No is required.', never the column name", async () => {
    const { registrationSchema } = await import("~/schemas/registration");
    const res = registrationSchema.safeParse({});
    expect(res.success).toBe(false);
    const messages = res.error!.issues.map((i) => i.message);
    expect(messages).toContain("Chassis No is required.");
    expect(messages).toContain("Bill/Chalan No is required.");
    expect(messages.join(" ")).not.toMatch(/chasis|_no|bill no/);
  });
});
