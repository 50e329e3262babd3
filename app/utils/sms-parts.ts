/**
 * How many SMS parts a text takes (3GPP TS 23.038 / 23.040), for the broadcast
 * preview and the form's live count. Safe for the browser and the server.
 *
 * - GSM-7: every character of the basic set is one septet; the extension set
 *   (^ { } \ [ ] ~ | € and form feed) is two (an escape, then the character).
 *   One part holds 160 septets; a longer text is split in parts of 153 (the
 *   rest carries the concatenation header), and an escaped pair is never
 *   split across two parts.
 * - Anything else (Nepali in Devanagari, emoji, curly quotes) sends the whole
 *   text as UCS-2: one part holds 70 UTF-16 units, a longer text parts of 67;
 *   a surrogate pair (an emoji) is never split.
 */

const GSM_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?" +
  "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
const GSM_EXTENSION = "^{}\\[]~|€\f";

const BASIC = new Set(Array.from(GSM_BASIC));
const EXTENSION = new Set(Array.from(GSM_EXTENSION));

export type SmsEncoding = "GSM-7" | "UCS-2";

export const SMS_LIMITS = {
  "GSM-7": { single: 160, multi: 153 },
  "UCS-2": { single: 70, multi: 67 },
} as const;

export type SmsParts = {
  encoding: SmsEncoding;
  /** Characters as a person counts them (code points). */
  characters: number;
  /** What the network counts: septets (GSM-7, an extension character is two) or UTF-16 units (UCS-2). */
  units: number;
  parts: number;
  /** Units one part holds for this text: 160 or 153 (GSM-7), 70 or 67 (UCS-2). */
  perPart: number;
  /** Units left in the last part before another part is needed. */
  remaining: number;
};

/** The units of each character of the text for `encoding` (septets, or UTF-16 units). */
function unitsOf(text: string, encoding: SmsEncoding): number[] {
  return Array.from(text, (ch) => (encoding === "GSM-7" ? (EXTENSION.has(ch) ? 2 : 1) : ch.length));
}

/** True when every character is in the GSM-7 basic or extension set. */
export function isGsm7(text: string): boolean {
  for (const ch of text) if (!BASIC.has(ch) && !EXTENSION.has(ch)) return false;
  return true;
}

/** Parts needed for the units, filling each part without splitting a character. */
function split(units: number[], size: number): { parts: number; last: number } {
  let parts = 1;
  let used = 0;
  for (const u of units) {
    if (used + u > size) {
      parts++;
      used = 0;
    }
    used += u;
  }
  return { parts, last: used };
}

/** The encoding, length and number of SMS parts of a message text. An empty text is one (empty) part. */
export function smsParts(text: string): SmsParts {
  const encoding: SmsEncoding = isGsm7(text) ? "GSM-7" : "UCS-2";
  const limits = SMS_LIMITS[encoding];
  const units = unitsOf(text, encoding);
  const total = units.reduce((a, b) => a + b, 0);
  const characters = units.length;
  if (total <= limits.single) {
    return { encoding, characters, units: total, parts: 1, perPart: limits.single, remaining: limits.single - total };
  }
  const { parts, last } = split(units, limits.multi);
  return { encoding, characters, units: total, parts, perPart: limits.multi, remaining: limits.multi - last };
}

/** "2 SMS parts (Unicode, 67 characters per part)" style label. */
export function encodingLabel(encoding: SmsEncoding): string {
  return encoding === "GSM-7" ? "GSM-7" : "Unicode";
}
