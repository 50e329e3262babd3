import { describe, expect, it } from "vitest";
import { isGsm7, smsParts } from "./sms-parts";

const a = (n: number) => "a".repeat(n);
const ne = (n: number) => "क".repeat(n);

describe("SMS parts", () => {
  it("GSM-7: 160 in one part, then parts of 153", () => {
    expect(smsParts("")).toMatchObject({ encoding: "GSM-7", units: 0, parts: 1, perPart: 160, remaining: 160 });
    expect(smsParts(a(160))).toMatchObject({ parts: 1, units: 160, remaining: 0 });
    expect(smsParts(a(161))).toMatchObject({ parts: 2, units: 161, perPart: 153, remaining: 153 * 2 - 161 });
    expect(smsParts(a(306)).parts).toBe(2);
    expect(smsParts(a(307)).parts).toBe(3);
  });

  it("GSM-7 extension characters count double, and are never split across parts", () => {
    expect(smsParts(`${a(158)}€`)).toMatchObject({ encoding: "GSM-7", characters: 159, units: 160, parts: 1 });
    expect(smsParts(`${a(159)}€`)).toMatchObject({ units: 161, parts: 2 });
    // 152 septets, then an escaped "[" (2) that does not fit in the first part's 153: it opens the second.
    expect(smsParts(`${a(152)}[${a(10)}`)).toMatchObject({ units: 164, parts: 2, remaining: 153 - 12 });
    for (const ch of "^{}\\[]~|€") expect(smsParts(ch).units, ch).toBe(2);
    expect(smsParts("@£$¥èé Ä ß").encoding).toBe("GSM-7");
  });

  it("Nepali (Devanagari) is UCS-2: 70 in one part, then parts of 67", () => {
    expect(isGsm7("नमस्ते")).toBe(false);
    expect(smsParts("नमस्ते")).toMatchObject({ encoding: "UCS-2", characters: 6, units: 6, parts: 1, perPart: 70 });
    expect(smsParts(ne(70)).parts).toBe(1);
    expect(smsParts(ne(71))).toMatchObject({ parts: 2, perPart: 67 });
    expect(smsParts(ne(134)).parts).toBe(2);
    expect(smsParts(ne(135)).parts).toBe(3);
    // One Nepali character makes the whole English text UCS-2.
    expect(smsParts(`${a(100)} क`)).toMatchObject({ encoding: "UCS-2", parts: 2 });
  });

  it("an emoji is two UTF-16 units and is never split", () => {
    expect(smsParts("😀")).toMatchObject({ encoding: "UCS-2", characters: 1, units: 2 });
    expect(smsParts(`${a(66)}😀${a(10)}`)).toMatchObject({ units: 78, parts: 2, remaining: 67 - 12 });
  });
});
