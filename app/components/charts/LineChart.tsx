/**
 * A line chart of daily figures, drawn on the server as SVG: one line per
 * series, a point per day (with its figure as a tooltip while the days are
 * few enough to point at), a round-topped axis and about eight day labels.
 */
import { ChartSvg, Legend } from "./ChartFigure";
import { formatCount, niceMax, SERIES_COLORS, shortFigure, slashDate, ticks } from "./scale";

export type LineSeries<K extends string> = { key: K; label: string };

const W = 720;
const H = 300;
const M = { left: 52, right: 16, top: 14, bottom: 40 };
/** Points are drawn (and carry a tooltip) up to this many days. */
const MAX_POINTS = 62;

export function LineChart<K extends string>({
  id,
  title,
  description,
  series,
  points,
}: {
  id: string;
  title: string;
  description: string;
  series: LineSeries<K>[];
  points: ({ date: string } & Record<K, number>)[];
}) {
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const n = Math.max(points.length, 1);
  const band = plotW / n;
  const top = niceMax(Math.max(0, ...points.flatMap((p) => series.map((s) => p[s.key]))));
  const x = (i: number) => M.left + band * (i + 0.5);
  const y = (v: number) => M.top + plotH - (v / top) * plotH;
  const labelEvery = Math.max(1, Math.ceil(n / 8));
  const round = (v: number) => Math.round(v * 10) / 10;
  return (
    <>
      <Legend series={series} />
      <ChartSvg id={id} title={title} description={description} width={W} height={H}>
        <g className="chart-grid">
          {ticks(top).map((t) => (
            <g key={t}>
              <line x1={M.left} x2={W - M.right} y1={round(y(t))} y2={round(y(t))} />
              <text x={M.left - 6} y={round(y(t))} dy="0.32em" textAnchor="end">
                {shortFigure(t)}
              </text>
            </g>
          ))}
        </g>
        <g className="chart-axis">
          <line x1={M.left} x2={W - M.right} y1={M.top + plotH} y2={M.top + plotH} />
          {points.map((p, i) =>
            i % labelEvery === 0 ? (
              <text key={p.date} x={round(x(i))} y={H - M.bottom + 18} textAnchor="middle">
                {slashDate(p.date).slice(5)}
              </text>
            ) : null,
          )}
        </g>
        {series.map((s, si) => {
          const color = SERIES_COLORS[si % SERIES_COLORS.length];
          return (
            <g key={s.key} className="chart-series">
              <polyline
                fill="none"
                stroke={color}
                strokeWidth={2}
                strokeLinejoin="round"
                points={points.map((p, i) => `${round(x(i))},${round(y(p[s.key]))}`).join(" ")}
              />
              {points.length <= MAX_POINTS
                ? points.map((p, i) => (
                    <circle key={p.date} cx={round(x(i))} cy={round(y(p[s.key]))} r={3} fill={color}>
                      <title>{`${slashDate(p.date)}: ${formatCount(p[s.key])} ${s.label.toLowerCase()}`}</title>
                    </circle>
                  ))
                : null}
            </g>
          );
        })}
      </ChartSvg>
    </>
  );
}
