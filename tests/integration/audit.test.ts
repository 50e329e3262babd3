// The audit trail's screen and download: only users holding every permission read it; filters that
// do not parse leave the list showing with a message; the download carries the same rows.
import { describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { audit } from "~/models/audit.server";
import { loader as auditLoader } from "~/routes/admin.audit";
import { loader as downloadLoader } from "~/routes/api.v1.audit.download";
import { issueToken } from "~/http/api.server";
import { makeBranch, makeUser } from "../fixtures";
import { answerTo, cookieFor, req } from "../route-helpers";

describe("audit trail screen", () => {
  it("branch users cannot read it, by page or download or API token", async () => {
    const manager = await makeUser("branch-manager", makeBranch().id);
    const cookie = await cookieFor(manager.id);
    const page = (await answerTo(auditLoader, req("GET", "/admin/audit", { headers: { Cookie: cookie } }))) as Response;
    expect([page.status, page.headers.get("Location")]).toEqual([302, "/admin"]);
    const file = (await answerTo(
      downloadLoader,
      req("GET", "/api/v1/audit/download", { headers: { Cookie: cookie } }),
    )) as Response;
    expect([file.status, file.headers.get("Location")]).toEqual([302, "/admin"]);
    const { token } = issueToken(manager.id, false);
    const api = (await answerTo(downloadLoader, req("GET", "/api/v1/audit/download", { token }))) as Response;
    expect(api.status).toBe(403);
  });

  it("head office reads and filters it; a bad date filter shows its message and the list", async () => {
    const admin = await makeUser("super-admin", null);
    const actor = { id: admin.id, email: admin.email, address: "10.70.0.1" };
    audit(db, actor, {
      action: "branch.create",
      entityType: "branch",
      entityId: "b-1",
      changes: { title: { before: null, after: "X" } },
    });
    audit(db, actor, { action: "video.delete", entityType: "video", entityId: "v-9" });
    const cookie = await cookieFor(admin.id);
    const data = (await answerTo(
      auditLoader,
      req("GET", "/admin/audit?action=branch", { headers: { Cookie: cookie } }),
    )) as {
      table: { data: { action: string; summary: string }[]; recordsFiltered: number };
      errors: Record<string, string[]>;
    };
    expect(data.table.data.map((r) => r.action)).toEqual(["branch.create"]);
    expect(data.table.data[0].summary).toBe("Name: X");
    const bad = (await answerTo(
      auditLoader,
      req("GET", "/admin/audit?from=abc&entity_type=video", {
        headers: {
          Cookie: cookie,
        },
      }),
    )) as {
      table: { data: { action: string }[] };
      errors: Record<string, string[]>;
    };
    expect(bad.errors.from?.[0]).toBe("Enter the date as yyyy/MM/dd.");
    expect(bad.table.data.map((r) => r.action)).toEqual(["video.delete"]);
    const file = (await answerTo(
      downloadLoader,
      req("GET", "/api/v1/audit/download?entity_type=branch", {
        headers: {
          Cookie: cookie,
        },
      }),
    )) as Response;
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Disposition")).toContain("AuditTrail.xls");
    const badApi = (await answerTo(
      downloadLoader,
      req("GET", "/api/v1/audit/download?from=abc", {
        headers: {
          Cookie: cookie,
        },
      }),
    )) as Response;
    expect(badApi.status).toBe(422);
    expect(db.select().from(schema.auditLog).all().length).toBeGreaterThanOrEqual(2);
  });
});
