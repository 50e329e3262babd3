/**
 * A citizenship number or PAN as the visitor's own pages and the public API show it (as the phone is
 * masked): its last three letters or digits, every other letter or digit as X, the separators kept,
 * so the visitor recognises it and a shoulder or a shared screen does not learn it.
 * "12-01-74-05678" → "XX-XX-XX-XX678".
 */
export function maskCitizenship(value: string): string {
  const chars = [...value];
  let shown = 3;
  for (let i = chars.length - 1; i >= 0; i--) {
    if (!/[\p{L}\p{N}]/u.test(chars[i])) continue;
    if (shown > 0) shown--;
    else chars[i] = "X";
  }
  return chars.join("");
}
