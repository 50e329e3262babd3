import { describe, expect, it } from "vitest";
import { isValidPhone, maskPhone, normalizePhone } from "./phone";

describe("normalizePhone", () => {
  it("accepts 10-digit numbers starting with 9", () => {
    expect(normalizePhone("9812345612")).toBe("9812345612");
    expect(normalizePhone("9712345678")).toBe("9712345678");
    expect(normalizePhone("9612345678")).toBe("9612345678");
  });

  it("strips +977 / 977 / 00977, spaces and dashes", () => {
    expect(normalizePhone("+9779812345612")).toBe("9812345612");
    expect(normalizePhone("9779812345612")).toBe("9812345612");
    expect(normalizePhone("009779812345612")).toBe("9812345612");
    expect(normalizePhone("+977-981-234-5612")).toBe("9812345612");
    expect(normalizePhone(" 98 1234 5612 ")).toBe("9812345612");
    expect(normalizePhone("+977 9812345612")).toBe("9812345612");
  });

  it("keeps a 10-digit number that itself starts with 977", () => {
    expect(normalizePhone("9771234567")).toBe("9771234567");
  });

  it("returns null for anything else", () => {
    for (const bad of [
      "",
      "981234561",
      "98123456123",
      "8812345612",
      "0981234561",
      "98123x5612",
      "+9778812345612",
      "977",
    ]) {
      expect(normalizePhone(bad), bad).toBeNull();
    }
    expect(normalizePhone(null)).toBeNull();
    expect(normalizePhone(undefined)).toBeNull();
    expect(normalizePhone({})).toBeNull();
    expect(isValidPhone("9812345612")).toBe(true);
    expect(isValidPhone("12345")).toBe(false);
  });
});

describe("maskPhone", () => {
  it("shows the first two and last two digits", () => {
    expect(maskPhone("9812345612")).toBe("98XXXXXX12");
    expect(maskPhone("+977-9812345612")).toBe("98XXXXXX12");
  });
  it("never shows a short or empty value", () => {
    expect(maskPhone("")).toBe("");
    expect(maskPhone(null)).toBe("");
    expect(maskPhone("1234")).toBe("XXXX");
  });
});
