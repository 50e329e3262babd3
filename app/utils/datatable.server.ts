/**
 * The DataTables protocol, server side, for every list: reads draw, start,
 * length, order, search and per-column search (also the short forms used by
 * the no-JavaScript pages: search, start, order, dir) and answers data,
 * recordsTotal, recordsFiltered and input. A big list's filtered count stops
 * at COUNT_CAP: past it the answer says `recordsFilteredCapped` and the page
 * reads "10,000+" (counting every match of a common name in millions of rows
 * costs more than the page itself); the total stays exact.
 */
import { and, asc, desc, eq, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

import { normalizePhone } from "./phone";
import { PAGE_SIZE } from "./table";

export { PAGE_SIZE };
export const MAX_PAGE_SIZE = 100;
/** How far a big list counts its matches: more reads "10,000+" (docs/decisions/0018-request-cost.md). */
export const COUNT_CAP = 10_000;

export type TableParams = {
  draw: number;
  start: number;
  length: number;
  search: string;
  order: { column: string; dir: "asc" | "desc" }[];
  columns: { data: string; search: string }[];
  input: Record<string, string>;
};

function int(v: string | null, fallback: number) {
  const n = Number.parseInt(v ?? "", 10);
  return Number.isFinite(n) ? n : fallback;
}

export function parseTableParams(params: URLSearchParams): TableParams {
  const input: Record<string, string> = {};
  params.forEach((v, k) => (input[k] = v));
  const columns: TableParams["columns"] = [];
  for (let i = 0; params.has(`columns[${i}][data]`); i++) {
    columns.push({
      data: params.get(`columns[${i}][data]`) ?? "",
      search: params.get(`columns[${i}][search][value]`) ?? "",
    });
  }
  const order: TableParams["order"] = [];
  for (let i = 0; params.has(`order[${i}][column]`); i++) {
    const idx = int(params.get(`order[${i}][column]`), -1);
    const name = params.get(`order[${i}][name]`) ?? columns[idx]?.data ?? "";
    order.push({ column: name, dir: params.get(`order[${i}][dir]`) === "asc" ? "asc" : "desc" });
  }
  if (!order.length && params.get("order")) {
    order.push({ column: params.get("order")!, dir: params.get("dir") === "asc" ? "asc" : "desc" });
  }
  const rawLength = int(params.get("length"), PAGE_SIZE);
  return {
    draw: int(params.get("draw"), 0),
    start: Math.max(0, int(params.get("start"), 0)),
    length: rawLength < 1 ? PAGE_SIZE : Math.min(rawLength, MAX_PAGE_SIZE),
    search: (params.get("search[value]") ?? params.get("search") ?? "").trim().slice(0, 100),
    order,
    columns,
    input,
  };
}

export type TableResult<Row> = {
  draw: number;
  data: Row[];
  recordsTotal: number;
  recordsFiltered: number;
  /** The matches were counted up to COUNT_CAP and there are more (recordsFiltered is COUNT_CAP). */
  recordsFilteredCapped?: boolean;
  input: Record<string, string>;
};

/** A count of up to COUNT_CAP + 1 as the list answers it: COUNT_CAP and capped past it. */
export function cappedCount(n: number): Pick<TableResult<unknown>, "recordsFiltered" | "recordsFilteredCapped"> {
  return n > COUNT_CAP ? { recordsFiltered: COUNT_CAP, recordsFilteredCapped: true } : { recordsFiltered: n };
}

export type TableQuery<Row> = {
  /** Columns that may be ordered by, by name. */
  orderable: Record<string, SQLiteColumn | SQL>;
  defaultOrder: { column: string; dir: "asc" | "desc" };
  /** Conditions every row must meet (scope, soft delete): counted in recordsTotal. */
  base: (SQL | undefined)[];
  /** List filters: counted in recordsFiltered only. */
  filters?: (SQL | undefined)[];
  /** Global search: columns searched with LIKE, or a function building the condition. */
  search?: SQLiteColumn[] | ((term: string) => SQL | undefined);
  /** Per-column search: column name to the column it filters by prefix. */
  columnSearch?: Record<string, SQLiteColumn>;
  /** How many rows meet `where`; with `limit`, counted no further than that (a big list's filtered count). */
  count: (where: SQL | undefined, limit?: number) => number;
  /** A big list: its filtered count stops at COUNT_CAP. */
  capped?: boolean;
  /** recordsTotal when it is kept without counting (a trigger-kept count for an unscoped list). */
  total?: () => number;
  rows: (where: SQL | undefined, orderBy: SQL[], limit: number, offset: number) => Row[];
};

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `%term%` with LIKE wildcards in the term escaped. */
export function likeContains(column: SQLiteColumn, term: string): SQL {
  return sql`${column} like ${`%${escapeLike(term)}%`} escape '\\'`;
}

/** `term%`: can use an index on the column. */
export function likePrefix(column: SQLiteColumn, term: string): SQL {
  return sql`${column} like ${`${escapeLike(term)}%`} escape '\\'`;
}

/**
 * A search of a phone column: a full phone (any form `normalizePhone` reads)
 * is that phone, digits are a prefix of it, anything else matches nothing.
 */
export function phoneSearch(column: SQLiteColumn, term: string): SQL {
  const phone = normalizePhone(term);
  if (phone) return eq(column, phone);
  const digits = term.replace(/\D/g, "");
  return digits ? likePrefix(column, digits) : sql`0`;
}

export function runTable<Row>(params: TableParams, q: TableQuery<Row>): TableResult<Row> {
  const baseWhere = and(...q.base);
  const conditions: (SQL | undefined)[] = [...q.base, ...(q.filters ?? [])];
  const narrowed = () => conditions.slice(q.base.length).some((c) => c !== undefined);
  if (params.search && q.search) {
    conditions.push(
      typeof q.search === "function"
        ? q.search(params.search)
        : or(...q.search.map((c) => likeContains(c, params.search))),
    );
  }
  for (const col of params.columns) {
    const target = col.search && q.columnSearch?.[col.data];
    if (target) conditions.push(likePrefix(target, col.search));
  }
  const where = and(...conditions);
  const orderBy: SQL[] = [];
  for (const o of params.order) {
    const col = q.orderable[o.column];
    if (col) orderBy.push(o.dir === "asc" ? asc(col) : desc(col));
  }
  if (!orderBy.length) {
    const col = q.orderable[q.defaultOrder.column];
    orderBy.push(q.defaultOrder.dir === "asc" ? asc(col) : desc(col));
  }
  const recordsTotal = q.total ? q.total() : q.count(baseWhere);
  // Nothing but the base: the filtered count is the total, not counted again.
  const filtered = !narrowed()
    ? { recordsFiltered: recordsTotal }
    : q.capped
      ? cappedCount(q.count(where, COUNT_CAP + 1))
      : { recordsFiltered: q.count(where) };
  return {
    draw: params.draw,
    data: q.rows(where, orderBy, params.length, params.start),
    recordsTotal,
    ...filtered,
    input: params.input,
  };
}

/** Paging arguments of the list functions: the DataTables parameters, of which draw, columns and input may be left out. */
export type PagingArgs = Pick<TableParams, "start" | "length" | "search" | "order"> & Partial<TableParams>;

export function toTableParams(args: PagingArgs): TableParams {
  return { draw: 0, columns: [], input: {}, ...args };
}
