/**
 * The paged searchable table of every list. Plain links and a GET form, so it
 * works without JavaScript; with it, a click anywhere on a row opens the detail.
 */
import { Form, Link, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import type { ReactNode } from "react";
import { PAGE_SIZE, showingLine } from "~/utils/table";
import { FilterError, invalidProps } from "./TableFilters";

export type TableColumn<Row> = {
  key: string;
  header: string;
  render?: (row: Row) => ReactNode;
  /** A column of longer words that may wrap (a status), so the key columns fit. */
  wrap?: boolean;
  /** With wrap: a column of running text (a message, a change), given more room to wrap in. */
  long?: boolean;
  /** A column of codes (bill, engine and chassis numbers): a long one may break anywhere. */
  code?: boolean;
  /** The header is for screen readers only (a column of buttons: "Actions"). */
  hideHeader?: boolean;
};

type Props<Row> = {
  /** The page of rows and how many match (a list's `TableResult`). */
  table: { data: Row[]; recordsFiltered: number; recordsFilteredCapped?: boolean };
  columns: TableColumn<Row>[];
  rowHref?: (row: Row) => string;
  rowKey: (row: Row) => string | number;
  length?: number;
  /** The search box's value: by default the query's `search`. */
  search?: string;
  searchLabel?: string;
  /** The search's messages when the list refused it (too short to look for), shown under the box. */
  searchErrors?: string[];
  /** Extra filter inputs placed in the same GET form. */
  filters?: ReactNode;
  /** Buttons or links shown beside the search. */
  actions?: ReactNode;
  /** The table's name, for the scrolling region around it. */
  label?: string;
};

function pageLink(search: string, start: number) {
  const params = new URLSearchParams(search);
  params.set("start", String(Math.max(0, start)));
  return `?${params.toString()}`;
}

export function DataTable<Row>({
  table: { data: rows, recordsFiltered, recordsFilteredCapped },
  columns,
  rowHref,
  rowKey,
  length = PAGE_SIZE,
  search,
  searchLabel = "Search",
  searchErrors,
  filters,
  actions,
  label = "Records",
}: Props<Row>) {
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // The page's first row, from the query as the list read it (a bad value is the first page).
  const start = Math.max(0, Number(params.get("start") ?? 0) || 0);
  const hasPrev = start > 0;
  const hasNext = start + rows.length < recordsFiltered;
  return (
    <section className="datatable">
      <Form method="get" className="table-tools" role="search">
        {filters ? <div className="table-filters">{filters}</div> : null}
        {/* One line that never wraps: the search, its button and the list's actions. */}
        <div className="table-bar">
          <label className={searchErrors?.length ? "search invalid" : "search"}>
            <span>{searchLabel}</span>
            <input
              type="search"
              name="search"
              defaultValue={search ?? params.get("search") ?? ""}
              {...invalidProps("search", searchErrors)}
            />
            <FilterError id="filter-search-error" errors={searchErrors} />
          </label>
          <button type="submit">Filter</button>
          {actions ? <span className="table-actions">{actions}</span> : null}
        </div>
      </Form>
      {/* Focusable so the keyboard can scroll a wide table; its cut edge is shaded (app.css). */}
      <div className="table-scroll" tabIndex={0} role="region" aria-label={label}>
        <table>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.key} scope="col">
                  {c.hideHeader ? <span className="visually-hidden">{c.header}</span> : c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={columns.length} className="empty">
                  No matching records found
                </td>
              </tr>
            ) : (
              rows.map((row) => {
                const href = rowHref?.(row);
                return (
                  <tr
                    key={rowKey(row)}
                    className={href ? "clickable" : undefined}
                    onClick={href ? () => navigate(href) : undefined}
                  >
                    {columns.map((c, i) => {
                      const content = c.render ? c.render(row) : String((row as Record<string, unknown>)[c.key] ?? "");
                      return (
                        <td
                          key={c.key}
                          data-label={c.header}
                          className={c.code ? "code" : c.wrap ? (c.long ? "wrap long" : "wrap") : undefined}
                        >
                          {href && i === 0 ? (
                            <Link to={href} onClick={(e) => e.stopPropagation()}>
                              {content || "—"}
                            </Link>
                          ) : (
                            content
                          )}
                        </td>
                      );
                    })}
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>
      <nav className="pager" aria-label="Pages">
        <span className="info">{showingLine(start, rows.length, recordsFiltered, recordsFilteredCapped)}</span>
        {hasPrev ? (
          <Link to={pageLink(location.search, start - length)} rel="prev">
            Previous
          </Link>
        ) : (
          <span className="disabled">Previous</span>
        )}
        {hasNext ? (
          <Link to={pageLink(location.search, start + length)} rel="next">
            Next
          </Link>
        ) : (
          <span className="disabled">Next</span>
        )}
      </nav>
    </section>
  );
}
