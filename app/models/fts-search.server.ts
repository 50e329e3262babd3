/**
 * Searching the two big lists (pre-registrations, registrations) through their trigram indexes
 * (drizzle/0002_search_fts.sql): the full-text query of a search term, the condition that puts it in
 * a list's WHERE clause, and head office's newest page of a search answered by the index alone, with
 * its count, without looking up every match (a common name matches tens of thousands of rows).
 */
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { db } from "@db/index";
import type { CountedTable } from "~/models/row-count.server";
import { COUNT_CAP, type TableParams } from "~/utils/datatable.server";
import { searchWords } from "~/utils/search-terms";

/** The full-text query of a search term: each word of 3 or more characters as a quoted substring; null when none is. */
export function ftsQuery(term: string): string | null {
  const words = searchWords(term);
  return words.length ? words.map((w) => `"${w}"`).join(" ") : null;
}

const INDEX: Record<CountedTable, SQL> = {
  preregistrations: sql.raw("preregistrations_fts"),
  registrations: sql.raw("registrations_fts"),
};

/** `id in (the rows whose indexed columns hold every word of q)`, for a list's WHERE clause. */
export function ftsCondition(table: CountedTable, id: SQLiteColumn, q: string): SQL {
  return sql`${id} in (select rowid from ${INDEX[table]} where ${INDEX[table]} match ${q})`;
}

/** Live matches of a full-text query: the index's own rows, less the deleted ones (their partial index). */
const liveMatches = (table: CountedTable, q: string) =>
  sql`${INDEX[table]} match ${q} and rowid not in (select id from ${sql.raw(table)} where deleted_at is not null)`;

/**
 * How many matches of a search are read at once when the term is digits (part of a phone or of a
 * citizenship number). Every row holds ten-digit numbers, so a digit's trigrams are listed for nearly
 * every row and each read of such a term is a whole pass over those lists, though it matches a few rows.
 * Up to this many are read in one pass, in the index's own order (a pass newest first costs a third
 * more): when that is all of them, they are the count and, sorted, every page. With more, the page is
 * read newest first and the count after, as for a name, whose lists hold only the rows with it.
 */
export const DIGITS_PEEK = 1000;

/** Every live match of `q`, newest first, when there are no more than `most`; else null. */
function everyMatchUpTo(table: CountedTable, q: string, most: number): number[] | null {
  const ids = db
    .all<{ id: number }>(sql`select rowid as id from ${INDEX[table]} where ${liveMatches(table, q)} limit ${most + 1}`)
    .map((r) => r.id);
  return ids.length > most ? null : ids.sort((a, b) => b - a);
}

/**
 * Head office's page of a search in the list's default order (newest first), from the index alone: the
 * ids of the page's live matches and how many there are, counted up to COUNT_CAP + 1.
 */
export function newestMatches(
  table: CountedTable,
  q: string,
  { start, length }: Pick<TableParams, "start" | "length">,
): { ids: number[]; count: number } {
  const all = /^[\d" ]+$/.test(q) ? everyMatchUpTo(table, q, DIGITS_PEEK) : null;
  if (all) return { ids: all.slice(start, start + length), count: all.length };
  const ids = db
    .all<{ id: number }>(
      sql`select rowid as id from ${INDEX[table]} where ${liveMatches(table, q)} order by rowid desc limit ${length} offset ${start}`,
    )
    .map((r) => r.id);
  const { n } = db.get<{ n: number }>(
    sql`select count(*) as n from (select 1 from ${INDEX[table]} where ${liveMatches(table, q)} limit ${COUNT_CAP + 1})`,
  );
  return { ids, count: n };
}

/**
 * A branch's page of a search in the list's default order (newest first): the ids of its matches among
 * `reach` (a subquery of the ids the branch reaches, read from an index) and how many there are, from
 * one read of both, counted up to COUNT_CAP + 1 (or as far as the page, past it).
 */
export function newestMatchesAmong(
  table: CountedTable,
  q: string,
  reach: SQL,
  { start, length }: Pick<TableParams, "start" | "length">,
): { ids: number[]; count: number } {
  const most = Math.max(COUNT_CAP + 1, start + length);
  const all = db
    .all<{ id: number }>(
      sql`select id from (${reach}) where id in (select rowid from ${INDEX[table]} where ${INDEX[table]} match ${q}) order by id desc limit ${most}`,
    )
    .map((r) => r.id);
  return { ids: all.slice(start, start + length), count: all.length };
}
