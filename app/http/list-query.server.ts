/**
 * A list's query string parsed with zod: the DataTables numbers (draw, start,
 * length) and the list's own filter schema. A bad value is a Failure with the
 * field it belongs to, which a page shows under its filter (with an empty
 * table) and the API answers with 422, never a 500.
 */
import { data } from "@remix-run/node";
import { z } from "zod";
import { fail, failureStatus, type FieldErrors, type Result } from "~/utils/failure";
import { foldHours } from "~/schemas/primitives";
import { registrationFiltersSchema } from "~/schemas/registration";
import { issuesToErrors } from "./body.server";
import { parseTableParams, type TableParams, type TableResult } from "~/utils/datatable.server";

export const TABLE_MESSAGES = {
  draw: "The draw counter must be a whole number.",
  start: "The start must be a whole number of 0 or more.",
  length: "The page length must be a whole number.",
} as const;

const wholeNumber = (message: string, min: number) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? Number(v.trim()) : undefined),
    z
      .number({ error: message })
      .refine((n) => Number.isSafeInteger(n) && n >= min, { error: message })
      .optional(),
  );

/** The paging numbers of the DataTables protocol (order, search and columns are read by parseTableParams). */
const tableNumbersSchema = z.object({
  draw: wholeNumber(TABLE_MESSAGES.draw, 0),
  start: wholeNumber(TABLE_MESSAGES.start, 0),
  // DataTables sends -1 for "all"; anything below 1 means the default page.
  length: wholeNumber(TABLE_MESSAGES.length, -1),
});

/** The query string as a plain object (a repeated key gives its last value). */
function queryValues(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  params.forEach((v, k) => (out[k] = v));
  return out;
}

export type ListQuery<F> = { table: TableParams; filters: F };

/**
 * The table parameters and the filters of a list. `extra` overrides query
 * values before the filters are parsed (for example `search` read from
 * DataTables' `search[value]`).
 */
export function parseListQuery<S extends z.ZodType>(
  params: URLSearchParams,
  filters: S,
  extra: Record<string, unknown> = {},
): Result<ListQuery<z.output<S>>> {
  // A day filter's hour (`from_hour`) is folded into its value (app/schemas/primitives.ts).
  const values = foldHours({ ...queryValues(params), ...extra });
  const errors: FieldErrors = {};
  const numbers = tableNumbersSchema.safeParse(values);
  if (!numbers.success) Object.assign(errors, issuesToErrors(numbers.error.issues));
  const parsed = filters.safeParse(values);
  if (!parsed.success) Object.assign(errors, issuesToErrors(parsed.error.issues));
  if (!parsed.success || Object.keys(errors).length) return fail.invalid(errors);
  return { ok: true, table: parseTableParams(params), filters: parsed.data };
}

/** The answer of a list whose query could not be read: no rows, the query echoed. */
export function emptyTable<Row>(params: URLSearchParams): TableResult<Row> {
  const draw = Number.parseInt(params.get("draw") ?? "", 10);
  return {
    draw: Number.isSafeInteger(draw) ? draw : 0,
    data: [],
    recordsTotal: 0,
    recordsFiltered: 0,
    input: queryValues(params),
  };
}

/**
 * A list page's answer: for a query that reads, the list's rows and its
 * filters; for one that does not, no rows and each filter's message under it
 * (422). `page` is what the page shows beside the list either way.
 */
export function listPage<F, Row, P extends object = object>(
  params: URLSearchParams,
  query: Result<ListQuery<F>>,
  list: (table: TableParams, filters: F) => TableResult<Row>,
  page?: P,
) {
  if (!query.ok) {
    const failed = { ...(page as P), table: emptyTable<Row>(params), filters: null, filterErrors: query.errors };
    return data(failed, { status: failureStatus(query) });
  }
  const table = list(query.table, query.filters);
  return { ...(page as P), table, filters: query.filters, filterErrors: null };
}

/**
 * A registration list's query string (the page, the trash, the dashboard, the API, the download and
 * the print sheet): its search is DataTables' search[value], the page's search, or q.
 */
export function parseRegistrationQuery(params: URLSearchParams) {
  const search = params.get("search[value]") ?? params.get("search") ?? params.get("q");
  return parseListQuery(params, registrationFiltersSchema, { search });
}
