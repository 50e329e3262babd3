/**
 * A download route's answer: the rows written into an .xls workbook (app/utils/spreadsheet.server.ts),
 * paced and cancelled with the request, and streamed out with the spec's file name.
 */
import { writeXls, type Column, type RowPages, type XlsFile } from "~/utils/spreadsheet.server";

/** A download response with the spec's file name (Registrations.xls, Branches.xls, ...), streamed. */
export function xlsResponse(file: XlsFile, filename: string): Response {
  return new Response(file.body, {
    headers: {
      "Content-Type": "application/vnd.ms-excel",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Content-Length": String(file.size),
      "Cache-Control": "no-store",
    },
  });
}

/** What every download route does: write the rows (paced, cancellable with the request) and answer the file. */
export async function xlsDownload<Row>(
  request: Request,
  {
    filename,
    sheet,
    columns,
    rows,
  }: { filename: string; sheet: string; columns: readonly Column<Row>[]; rows: Iterable<Row> | RowPages<Row> },
): Promise<Response> {
  const file = await writeXls(sheet, columns, rows, { signal: request.signal });
  // A client that goes away before the body is read leaves nothing open.
  request.signal.addEventListener("abort", () => void file.discard(), { once: true });
  return xlsResponse(file, filename);
}
