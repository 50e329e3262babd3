import { describe, expect, it } from "vitest";
import { maskCitizenship } from "./citizenship";

describe("maskCitizenship", () => {
  it("shows the last three letters or digits, the separators, and X for the rest", () => {
    expect(maskCitizenship("12-01-74-05678")).toBe("XX-XX-XX-XX678");
    expect(maskCitizenship("271/3045")).toBe("XXX/X045");
    expect(maskCitizenship("PAN601234")).toBe("XXXXXX234");
    expect(maskCitizenship("१२-०१-७४५")).toBe("XX-XX-७४५");
  });

  it("a short number keeps at most three characters and hides nothing it cannot", () => {
    expect(maskCitizenship("123")).toBe("123");
    expect(maskCitizenship("12345")).toBe("XX345");
    expect(maskCitizenship("")).toBe("");
  });
});
