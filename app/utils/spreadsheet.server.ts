/**
 * The .xls downloads: real Excel 97-2003 (BIFF8) workbooks written by our own
 * streaming writer (app/utils/xls/). Rows are pulled from the exporter's
 * generator (which reads its table in pages) and written in slices of a few
 * milliseconds, yielding to the event loop between slices, so other requests
 * are served while an export runs; the file is built in two temporary files
 * and streamed out with its Content-Length. Memory stays flat whatever the row
 * count. Values are written exactly as shown on screen: text goes into text
 * cells (LABELSST), which spreadsheets never evaluate, so "=1+1", "-5" or
 * "@x" stay text without being rewritten (docs/decisions/0011-streamed-xls.md).
 * A list longer than one sheet (65,535 data rows) continues on further sheets.
 * The download's Response is app/http/xls-download.server.ts's.
 */
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { XlsWorkbookWriter, type CellValue, type XlsFile } from "./xls/workbook";

export type { CellValue, XlsFile } from "./xls/workbook";

/** BIFF8 holds 65,536 rows; one is the header. */
const MAX_DATA_ROWS_PER_SHEET = 65_535;

/**
 * Rows an exporter reads from the database at a time. One page read is one
 * synchronous call the writer cannot split, so it stays small enough to leave
 * the event loop free for other requests (about 15-20 ms of work).
 */
export const EXPORT_PAGE_ROWS = 1000;

export type Column<Row> = { header: string; value: (row: Row) => CellValue };

/** How long one slice of writing may hold the event loop before it yields (a request in progress waits at most this long per step). */
const SLICE_MS = 5;
/** Buffered bytes that are written to the temporary files at the next yield. */
const DRAIN_BYTES = 256 * 1024;

/** Where exports keep their (unlinked) temporary files: on disk beside the data, not in a RAM-backed /tmp. */
export function exportTmpDir(): string {
  return path.resolve(process.env.EXPORT_TMP_DIR ?? path.join(process.env.DATA_DIR ?? "data", "tmp"));
}

export type WriteXlsOptions = {
  rowsPerSheet?: number;
  /** Stops the export (and frees its files) when the client goes away. */
  signal?: AbortSignal;
  sliceMs?: number;
  /** Called after each slice, with the rows written so far (tests and progress). */
  onSlice?: (rows: number) => void;
};

/** Rows read a page at a time off the event loop (db/page-reader.ts). */
export type RowPages<Row> = AsyncIterable<readonly Row[]>;

/** Writes every row into a workbook, a slice at a time; the result streams the finished file. */
export async function writeXls<Row>(
  sheetName: string,
  columns: readonly Column<Row>[],
  rows: Iterable<Row> | RowPages<Row>,
  { rowsPerSheet = MAX_DATA_ROWS_PER_SHEET, signal, sliceMs = SLICE_MS, onSlice }: WriteXlsOptions = {},
): Promise<XlsFile> {
  signal?.throwIfAborted();
  const book = await XlsWorkbookWriter.create({
    sheetName,
    header: columns.map((c) => c.header),
    tmpDir: exportTmpDir(),
    rowsPerSheet,
  });
  // Rows read in place are one page, read lazily as the slices go.
  const pages: AsyncIterable<Iterable<Row>> | Iterable<Iterable<Row>> = Symbol.asyncIterator in rows ? rows : [rows];
  try {
    const values: CellValue[] = new Array(columns.length);
    let deadline = performance.now() + sliceMs;
    let n = 0;
    for await (const page of pages) {
      for (const row of page) {
        for (let c = 0; c < columns.length; c++) values[c] = columns[c].value(row);
        book.addRow(values);
        if ((++n & 15) === 0 && performance.now() >= deadline) {
          if (book.buffered >= DRAIN_BYTES) await book.drain();
          onSlice?.(book.rows);
          await nextTurn();
          signal?.throwIfAborted();
          deadline = performance.now() + sliceMs;
        }
      }
    }
    onSlice?.(book.rows);
    return await book.finish();
  } catch (e) {
    await book.discard();
    throw e;
  }
}
