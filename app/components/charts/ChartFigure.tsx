/**
 * The frame every chart shares: a heading, the SVG (an image with its title
 * and description, read by screen readers as one picture), a legend, and the
 * same figures as a table under it, folded in a native disclosure ("Show the
 * figures", open and shut without JavaScript) so the page stays a few screens
 * long. The table is the source of truth: the picture only draws what the
 * table says.
 */
import type { ReactNode } from "react";
import { SERIES_COLORS } from "./scale";

export type TableSpec<Row> = {
  caption: string;
  columns: { header: string; cell: (row: Row) => ReactNode; numeric?: boolean }[];
  rows: Row[];
  rowKey: (row: Row) => string | number;
  /** A last row (totals), in the table's foot. */
  foot?: ReactNode[];
};

export function ChartTable<Row>({ caption, columns, rows, rowKey, foot }: TableSpec<Row>) {
  return (
    <div className="chart-table" tabIndex={0} role="group" aria-label={caption}>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={c.numeric ? "num" : undefined}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c, i) =>
                i === 0 ? (
                  <th key={c.header} scope="row">
                    {c.cell(row)}
                  </th>
                ) : (
                  <td key={c.header} className={c.numeric ? "num" : undefined}>
                    {c.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
        {foot ? (
          <tfoot>
            <tr>
              {foot.map((cell, i) =>
                i === 0 ? (
                  <th key={i} scope="row">
                    {cell}
                  </th>
                ) : (
                  <td key={i} className={columns[i]?.numeric ? "num" : undefined}>
                    {cell}
                  </td>
                ),
              )}
            </tr>
          </tfoot>
        ) : null}
      </table>
    </div>
  );
}

export function Legend({ series }: { series: { label: string; color?: string }[] }) {
  if (series.length < 2) return null;
  return (
    <ul className="chart-legend" aria-hidden="true">
      {series.map((s, i) => (
        <li key={s.label}>
          <span className="swatch" style={{ background: s.color ?? SERIES_COLORS[i % SERIES_COLORS.length] }} />
          {s.label}
        </li>
      ))}
    </ul>
  );
}

/** The accessible SVG shell: `role="img"` named by its <title> and described by its <desc>. */
export function ChartSvg({
  id,
  title,
  description,
  width,
  height,
  children,
}: {
  id: string;
  title: string;
  description: string;
  width: number;
  height: number;
  children: ReactNode;
}) {
  return (
    <svg
      className="chart-svg"
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      role="img"
      aria-labelledby={`${id}-title ${id}-desc`}
      xmlns="http://www.w3.org/2000/svg"
    >
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{description}</desc>
      {children}
    </svg>
  );
}

/** A chart section: heading (a third-level one, under its question), picture with legend, a note, then its table folded under "Show the figures". */
export function ChartFigure({
  id,
  heading,
  chart,
  table,
  note,
}: {
  id: string;
  heading: string;
  chart: ReactNode;
  table: ReactNode;
  note?: ReactNode;
}) {
  return (
    <section className="chart-section" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{heading}</h3>
      <div className="chart-picture">{chart}</div>
      {note ? <p className="chart-note">{note}</p> : null}
      <details className="chart-figures">
        <summary>Show the figures</summary>
        {table}
      </details>
    </section>
  );
}
