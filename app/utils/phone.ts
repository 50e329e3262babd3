/**
 * Nepali mobile numbers: 10 digits starting with 9 (98XXXXXXXX, 97XXXXXXXX, ...).
 * A leading +977 / 977 country code and spaces, dashes and dots are accepted and
 * stripped. Safe for the browser and the server.
 */

const MOBILE = /^9\d{9}$/;
const WITH_COUNTRY_CODE = /^(?:\+|00)?977(9\d{9})$/;

/** The 10-digit form of a Nepali mobile number, or null when it is not one. */
export function normalizePhone(input: unknown): string | null {
  if (typeof input !== "string" && typeof input !== "number") return null;
  if (typeof input === "string" && MOBILE.test(input)) return input; // already in its 10-digit form
  const compact = String(input)
    .trim()
    .replace(/[\s\-.()]/g, "");
  if (MOBILE.test(compact)) return compact;
  const m = WITH_COUNTRY_CODE.exec(compact);
  return m ? m[1] : null;
}

export function isValidPhone(input: unknown): boolean {
  return normalizePhone(input) !== null;
}

/** "9812345612" -> "98XXXXXX12": the first two and last two digits stay readable. */
export function maskPhone(input: string | null | undefined): string {
  if (!input) return "";
  const phone = normalizePhone(input) ?? input.trim();
  if (phone.length <= 4) return "X".repeat(phone.length);
  return phone.slice(0, 2) + "X".repeat(phone.length - 4) + phone.slice(-2);
}
