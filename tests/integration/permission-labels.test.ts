// The role matrix and every message name a permission by its label (app/utils/permissions.ts), never its code.
import { describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { ROLE_MESSAGES } from "~/schemas/user";
import { PERMISSION_LABELS, PERMISSIONS, permissionLabel } from "~/utils/permissions";

/** A permission's code: "read-user", "send-sms", "manage-allocation". */
const CODE = /\b(read|create|update|delete|send|manage)-[a-z-]+\b/;

describe("permission labels", () => {
  it("every permission, in the code and in the database, has its own label that is not its code", () => {
    const stored = db
      .select({ name: schema.permissions.name })
      .from(schema.permissions)
      .all()
      .map((p) => p.name);
    expect(stored.length).toBeGreaterThan(0);
    for (const name of new Set([...PERMISSIONS, ...stored])) {
      const text = PERMISSION_LABELS[name as keyof typeof PERMISSION_LABELS];
      expect(text, name).toBeTruthy();
      expect(text, name).not.toMatch(CODE);
    }
    expect(new Set(Object.values(PERMISSION_LABELS)).size).toBe(PERMISSIONS.length);
    expect(Object.keys(PERMISSION_LABELS).sort()).toEqual([...PERMISSIONS].sort());
  });

  it("a refusal names the permissions by their labels", () => {
    expect(permissionLabel("read-user")).toBe("View users");
    expect(ROLE_MESSAGES.notHeld(["send-sms", "manage-allocation"])).toBe(
      "You cannot give a permission you do not hold yourself: Send SMS and view analytics, Manage schemes.",
    );
  });
});
