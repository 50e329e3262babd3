/**
 * What a big list's search looks for. The trigram index (drizzle/0002_search_fts.sql) finds any
 * substring of 3 or more characters, so each word of 3 or more is searched and shorter words are left
 * out. A term with no such word is refused at the search field: answering it would read every row of a
 * list of millions (docs/decisions/0018-request-cost.md, "Searches too short for the index").
 */
export const SEARCH_MIN_CHARS = 3;

export const SEARCH_TOO_SHORT = `Type at least ${SEARCH_MIN_CHARS} letters or digits to search.`;

/** The words of a search term that the index can find, quotes left out. */
export function searchWords(term: string): string[] {
  return term
    .split(/\s+/)
    .map((w) => w.replace(/"/g, ""))
    .filter((w) => [...w].length >= SEARCH_MIN_CHARS);
}
