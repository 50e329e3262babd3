// What staff read in the audit trail and the role matrix: actions, records, fields and enumerated
// values by their labels, never a stored code.
import { describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import type { AuditEntry } from "@db/schema";
import { AUDIT_COLUMNS, auditFieldLabel, describeChanges, readableAudit } from "~/models/audit.server";
import { AUDIT_ACTION, AUDIT_RECORD, auditActionLabel, auditRecordLabel } from "~/utils/labels";

/** A stored code: "registration.create", "read-user", "payment_mode", "CASH_EXCHANGE". */
const CODE =
  /\b[a-z]+\.[a-z_]+\b|\b[a-z]+_[a-z_]+\b|\b(read|create|update|delete|send|manage)-[a-z-]+\b|\b[A-Z]+_[A-Z_]+\b/;

const json = (changes: Record<string, [unknown, unknown]>) =>
  JSON.stringify(Object.fromEntries(Object.entries(changes).map(([k, [before, after]]) => [k, { before, after }])));

describe("describeChanges", () => {
  it("names a registration's fields by the form's labels and its enumerated values by theirs", () => {
    const text = describeChanges(
      json({
        payment_mode: ["CASH", "FINANCE_EXCHANGE"],
        chasis_no: ["CH-1", "CH-2"],
        status: ["confirmed", "drawn"],
        coupon_amount: [null, 5000],
      }),
      "registration",
    );
    expect(text).toBe(
      "Payment Mode: Cash → Finance + Exchange; Chassis No: CH-1 → CH-2; " +
        "Status: Confirmed, coupon not drawn → Coupon drawn; Coupon amount: — → 5000",
    );
  });

  it("reads each record's fields as its own form labels them", () => {
    expect(describeChanges(json({ title: [null, "Pokhara"] }), "branch")).toBe("Name: Pokhara");
    expect(describeChanges(json({ title: [null, "Classic"] }), "bike_model")).toBe("Title: Classic");
    expect(describeChanges(json({ citizenship_no: [null, "12-34"] }), "video")).toBe("Registration ID: 12-34");
    expect(describeChanges(json({ sex: ["MALE", "FEMALE"], role_id: [1, 2] }), "user")).toBe(
      "Sex: Male → Female; Role: 1 → 2",
    );
    expect(describeChanges(json({ source: [null, "SOCIAL MEDIA"] }), "preregistration")).toBe(
      "Source of information: Social media",
    );
    expect(describeChanges(json({ type: [null, "preregistration_public"] }), "allocation")).toBe(
      "Type: Pre-registration (public)",
    );
    expect(describeChanges(json({ type: ["TESTRIDE", null] }), "test_ride")).toBe("Type: Test Ride → —");
    expect(describeChanges(json({ registration_open: [true, false] }), "setting")).toBe("Registration: Open → Closed");
    expect(describeChanges(json({ logo: [3, 4] }), "setting")).toBe("Logo: 3 → 4");
    expect(describeChanges(json({ type: [null, "BRANCH"] }), "sms_broadcast")).toBe("Send to: Branch");
    expect(describeChanges(json({ status: ["failed", "queued"] }), "sms_message")).toBe("Status: Failed → Waiting");
  });

  it("names permissions by their labels in a role's changes", () => {
    const text = describeChanges(
      json({ permissions: [["read-user"], ["read-user", "send-sms"]], added: [null, ["send-sms"]] }),
      "role",
    );
    expect(text).toBe(
      "Permissions: View users → View users, Send SMS and view analytics; Permissions given: — → Send SMS and view analytics",
    );
    expect(text).not.toMatch(CODE);
  });

  it("reads a field no table knows as words, and keeps hidden values hidden", () => {
    expect(auditFieldLabel("registration", "some_new_column")).toBe("Some new column");
    expect(describeChanges(json({ password: ["•••", "•••"] }), "user")).toBe("Password: ••• → •••");
    expect(describeChanges("not json")).toBe("");
  });
});

describe("a record's first values, ids and times", () => {
  it("reads a creation as its values, without the record's id, token or creation time, times as Kathmandu time", () => {
    const text = describeChanges(
      json({
        id: [null, 12],
        slug: [null, "OXvey7C4WZVz0oDM"],
        title: [null, "Sabina wins"],
        form_token: [null, "tok"],
        created_at: [null, "2026-11-27T08:12:44.191Z"],
        verified_at: [null, "2026-11-27T08:12:44.191Z"],
        branches: [null, []],
      }),
      "preregistration",
    );
    expect(text).toBe("Title: Sabina wins; Verified: 2026/11/27 13:57; Branches: none");
  });

  it("names the branch, model and role behind an id, and the record a row is about, linked", () => {
    const branch = db
      .insert(schema.branches)
      .values({
        slug: "audit-names",
        title: "Audit Names Showroom",
        state: "Bagmati",
        district: "Lalitpur",
        city: "Lalitpur",
      })
      .returning()
      .get();
    const row = {
      id: 2,
      at: "2026-01-05T06:15:00.000Z",
      user_id: 1,
      user_email: "admin@demo.test",
      address: "10.0.0.1",
      action: "branch.update",
      entity_type: "branch",
      entity_id: String(branch.id),
      changes: json({ title: ["Old", "Audit Names Showroom"] }),
    } satisfies AuditEntry;
    const user = {
      ...row,
      id: 3,
      action: "user.update",
      entity_type: "user",
      entity_id: "gone-for-good",
      changes: json({ branch_id: [null, branch.id] }),
    };
    const [named, unknown] = readableAudit([row, user]);
    expect(named.record).toBe("Branch: Audit Names Showroom");
    expect(named.record_href).toBe("/admin/branch/audit-names");
    // A record deleted for good keeps its id; the branch it was given is named.
    expect(unknown.record).toBe("User gone-for-good");
    expect(unknown.record_href).toBeNull();
    expect(unknown.summary).toBe("Branch: Audit Names Showroom");
  });
});

describe("the audit trail's actions and records", () => {
  it("every action and record type has a label that is not a code", () => {
    for (const [action, text] of Object.entries(AUDIT_ACTION)) {
      expect(auditActionLabel(action)).toBe(text);
      expect(text, action).not.toMatch(CODE);
    }
    for (const [type, text] of Object.entries(AUDIT_RECORD)) {
      expect(auditRecordLabel(type)).toBe(text);
      expect(text, type).not.toMatch(CODE);
    }
    expect(AUDIT_ACTION["registration.create"]).toBe("Registration created");
    // An action no longer written (an old row) still reads as words.
    expect(auditActionLabel("registration.mark_paid")).toBe("Registration mark paid");
  });

  it("the download's row carries the labels, not the codes", () => {
    const row = {
      id: 1,
      at: "2026-01-05T06:15:00.000Z",
      user_id: 1,
      user_email: "admin@demo.test",
      address: "10.0.0.1",
      action: "registration.update",
      entity_type: "registration",
      entity_id: "ab12cd",
      changes: json({ payment_mode: ["CASH", "FINANCE"] }),
    } satisfies AuditEntry;
    const [readable] = readableAudit([row]);
    const cells = Object.fromEntries(AUDIT_COLUMNS.map((c) => [c.header, c.value(readable)]));
    expect(cells.Action).toBe("Registration edited");
    expect(cells.Record).toBe("Registration ab12cd");
    expect(cells.Changes).toBe("Payment Mode: Cash → Finance");
  });
});
