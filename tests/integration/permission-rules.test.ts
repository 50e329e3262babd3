/**
 * The permission checks themselves (app/utils/permissions.ts): nobody signed out passes; a login-only
 * page lets any signed-in user in; "every permission" needs all of them; who sees one-time codes; and
 * the refusal each permission answers with, in words a user understands.
 */
import { describe, expect, it } from "vitest";
import {
  can,
  canSeeCodes,
  EVERY_PERMISSION,
  PERMISSION_PURPOSE,
  permissionRefusal,
  PERMISSIONS,
} from "~/utils/permissions";

const holding = (...permissions: string[]) => ({ permissions });

describe("can", () => {
  it("refuses nobody signed in, whatever the page needs", () => {
    for (const who of [null, undefined]) {
      expect(can(who, null)).toBe(false);
      expect(can(who, "read-user")).toBe(false);
      expect(can(who, EVERY_PERMISSION)).toBe(false);
    }
  });

  it("lets any signed-in user open a login-only page, and a page of a permission only to its holders", () => {
    expect(can(holding(), null)).toBe(true);
    expect(can(holding("send-sms"), "send-sms")).toBe(true);
    expect(can(holding("send-sms"), "read-user")).toBe(false);
  });

  it("gives 'every permission' only to a user who holds all of them", () => {
    expect(can(holding(...PERMISSIONS), EVERY_PERMISSION)).toBe(true);
    expect(can(holding(...PERMISSIONS.slice(1)), EVERY_PERMISSION)).toBe(false);
  });
});

describe("canSeeCodes", () => {
  it("is read-user or create-user (the spec names both), and nothing else", () => {
    expect(canSeeCodes(holding("read-user"))).toBe(true);
    expect(canSeeCodes(holding("create-user"))).toBe(true);
    expect(canSeeCodes(holding(...PERMISSIONS.filter((p) => p !== "read-user" && p !== "create-user")))).toBe(false);
    expect(canSeeCodes(null)).toBe(false);
  });
});

describe("a refusal", () => {
  it("says what the missing permission would let the user do", () => {
    expect(permissionRefusal("send-sms")).toBe("You do not have permission to open SMS and Analytics.");
    expect(permissionRefusal(EVERY_PERMISSION)).toBe(
      "You do not have permission to open this page: it needs every permission.",
    );
  });

  it("has words for every permission: what it opens, creates, edits, deletes or changes, each its own", () => {
    for (const p of PERMISSIONS) {
      expect(PERMISSION_PURPOSE[p], p).toMatch(/^(open|create|edit|delete|change) [A-Za-z][\w -]+$/);
    }
    expect(new Set(PERMISSIONS.map((p) => PERMISSION_PURPOSE[p])).size).toBe(PERMISSIONS.length);
  });
});
