/** Table constants and the info line, shared by the server helper and the DataTable component. */
export const PAGE_SIZE = 10;

/** "Showing 1 - 10 of 23 entries"; a count that stopped at its cap reads "of 10,000+ entries". */
export function showingLine(start: number, shown: number, total: number, capped = false): string {
  const of = capped ? `${total.toLocaleString("en")}+` : String(total);
  if (total === 0 || shown === 0) return `Showing 0 - 0 of ${of} entries`;
  return `Showing ${start + 1} - ${start + shown} of ${of} entries`;
}
