/**
 * The one rupee formatter: figures with Nepali grouping (the last three
 * digits, then pairs) from `Intl.NumberFormat("en-IN")`, in ASCII digits
 * (the public pages' `rupees(lang, …)` writes them in the page's numerals). Client-safe.
 */
const GROUPED = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 0 });

/** A whole figure, fractions cut off: 4000 → "4,000", 250000 → "2,50,000", -1500 → "-1,500". */
export function groupDigits(amount: number): string {
  return GROUPED.format(Math.trunc(amount));
}

/** "Rs. 2,50,000"; `prefix` is the language's word for rupees ("रु." in Nepali). */
export function formatRupees(amount: number, prefix = "Rs."): string {
  return `${prefix} ${groupDigits(amount)}`;
}
