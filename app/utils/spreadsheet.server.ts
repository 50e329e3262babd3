/**
 * The .xls writer of every download: real Excel 97-2003 (BIFF8) workbooks
 * written with sheetjs-style. Text cells that a spreadsheet could take for a
 * formula (= + - @, tab, carriage return) are escaped with a leading quote, and
 * a list longer than one sheet's row limit continues on further sheets.
 * (This library is used to write only, never to read an upload.)
 */
import XLSX from "sheetjs-style";

/** BIFF8 holds 65,536 rows; one is the header. */
export const MAX_DATA_ROWS_PER_SHEET = 65_535;

export type Column<Row> = { header: string; value: (row: Row) => string | number | boolean | null | undefined };

const FORMULA_START = /^[=+\-@\t\r]/;

export function escapeCell(value: string | number | boolean | null | undefined): string | number | boolean | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "string" && FORMULA_START.test(value)) return `'${value}`;
  return value;
}

export function writeXls<Row>(
  sheetName: string,
  columns: Column<Row>[],
  rows: Iterable<Row>,
  { rowsPerSheet = MAX_DATA_ROWS_PER_SHEET } = {},
): Buffer {
  const wb = XLSX.utils.book_new();
  const header = columns.map((c) => c.header);
  let chunk: (string | number | boolean | null)[][] = [header];
  let sheetNo = 1;
  const flush = () => {
    const name = sheetNo === 1 ? sheetName : `${sheetName} ${sheetNo}`;
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(chunk), name.slice(0, 31));
    sheetNo += 1;
    chunk = [header];
  };
  for (const row of rows) {
    chunk.push(columns.map((c) => escapeCell(c.value(row))));
    if (chunk.length - 1 >= rowsPerSheet) flush();
  }
  if (chunk.length > 1 || sheetNo === 1) flush();
  return XLSX.write(wb, { type: "buffer", bookType: "biff8" }) as Buffer;
}

/** A download response with the spec's file name (Registrations.xls, Branches.xls, ...). */
export function xlsResponse(buffer: Buffer, filename: string): Response {
  return new Response(new Uint8Array(buffer), {
    headers: {
      "Content-Type": "application/vnd.ms-excel",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Content-Length": String(buffer.length),
      "Cache-Control": "no-store",
    },
  });
}
