/**
 * A horizontal bar chart drawn on the server as SVG: one group of bars per row
 * (one bar per series), the row's label on the left (shortened when long,
 * whole in its tooltip and in the table), each bar's figure at its end.
 */
import { ChartSvg, Legend } from "./ChartFigure";
import { clip, formatCount, niceMax, SERIES_COLORS, shortFigure, ticks } from "./scale";

export type BarRow = { key: string | number; label: string; values: number[] };

const W = 720;
const M = { left: 196, right: 84, top: 8, bottom: 28 };
const BAR = 12;
const GAP = 2;
const GROUP_GAP = 8;

export function BarChart({
  id,
  title,
  description,
  series,
  rows,
  format = formatCount,
  colors,
}: {
  id: string;
  title: string;
  description: string;
  series: string[];
  rows: BarRow[];
  /** A figure as written at the end of its bar. */
  format?: (value: number) => string;
  /** Colours by series (default: the series palette). */
  colors?: string[];
}) {
  const palette = colors ?? SERIES_COLORS;
  const groupH = series.length * (BAR + GAP) - GAP;
  const plotH = Math.max(1, rows.length) * (groupH + GROUP_GAP) - GROUP_GAP;
  const H = M.top + plotH + M.bottom;
  const plotW = W - M.left - M.right;
  const top = niceMax(Math.max(0, ...rows.flatMap((r) => r.values)));
  const x = (v: number) => Math.round((v / top) * plotW * 10) / 10;
  return (
    <>
      <Legend series={series.map((label, i) => ({ label, color: palette[i % palette.length] }))} />
      <ChartSvg id={id} title={title} description={description} width={W} height={H}>
        <g className="chart-grid">
          {ticks(top).map((t) => (
            <g key={t}>
              <line x1={M.left + x(t)} x2={M.left + x(t)} y1={M.top} y2={M.top + plotH} />
              <text x={M.left + x(t)} y={H - 8} textAnchor="middle">
                {shortFigure(t)}
              </text>
            </g>
          ))}
        </g>
        {rows.map((row, ri) => {
          const y0 = M.top + ri * (groupH + GROUP_GAP);
          return (
            <g key={row.key} className="chart-bar-group">
              <text x={M.left - 8} y={y0 + groupH / 2} dy="0.32em" textAnchor="end" className="chart-label">
                <title>{row.label}</title>
                {clip(row.label, 28)}
              </text>
              {row.values.map((v, si) => {
                const y = y0 + si * (BAR + GAP);
                return (
                  <g key={series[si]}>
                    <rect
                      x={M.left}
                      y={y}
                      width={Math.max(v > 0 ? 1 : 0, x(v))}
                      height={BAR}
                      fill={palette[si % palette.length]}
                    >
                      <title>{`${row.label}, ${series[si].toLowerCase()}: ${format(v)}`}</title>
                    </rect>
                    <text x={M.left + x(v) + 4} y={y + BAR / 2} dy="0.32em" className="chart-value">
                      {format(v)}
                    </text>
                  </g>
                );
              })}
            </g>
          );
        })}
        <line className="chart-axis-line" x1={M.left} x2={M.left} y1={M.top} y2={M.top + plotH} />
      </ChartSvg>
    </>
  );
}
