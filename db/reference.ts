/**
 * An entry's public reference: 12 characters of Crockford base32 from a hash of its slug,
 * grouped in fours (ABCD-EFGH-JKMN), as coupon codes are grouped. Case-free and easy to read
 * aloud at a counter, and it does not open the entry's pages (the slug cannot be found from it).
 * A pre-registration keeps its reference in `preregistrations.ref` (set by the database, through
 * the `entry_reference` function every connection of db/index.ts registers), so the counter
 * finds an entry by it; its draws record the same value.
 */
import crypto from "node:crypto";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export function entryReference(slug: string): string {
  const digest = crypto.createHash("sha256").update(`draw-reference:${slug}`).digest();
  let out = "";
  for (let i = 0; i < 12; i++) out += CROCKFORD[digest[i] & 31];
  return `${out.slice(0, 4)}-${out.slice(4, 8)}-${out.slice(8)}`;
}

/** A typed reference made comparable: upper case, no spaces or dashes, O read as 0, I and L as 1. */
export function normaliseReference(typed: string): string | null {
  const plain = typed.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  if (!/^[0-9A-HJKMNP-TV-Z]{12}$/.test(plain)) return null;
  return `${plain.slice(0, 4)}-${plain.slice(4, 8)}-${plain.slice(8)}`;
}
