/** Table constants and the info line, shared by the server helper and the DataTable component. */
export const PAGE_SIZE = 10;

export function showingLine(start: number, shown: number, total: number): string {
  if (total === 0 || shown === 0) return `Showing 0 - 0 of ${total} entries`;
  return `Showing ${start + 1} - ${start + shown} of ${total} entries`;
}
