/**
 * The funnel drawn on the server as SVG: one centred bar per step, its width
 * the step's share of the first, with the rate from the step before between
 * the bars.
 */
import { ChartSvg } from "./ChartFigure";
import { formatCount, formatPercent, SERIES_COLORS } from "./scale";

export type FunnelStep = { label: string; value: number; /** Percent of the step before. */ rate: number | null };

const W = 720;
const BAR = 40;
const GAP = 30;
/** Width a bar needs to hold its label. */
const LABEL_ROOM = 230;

export function FunnelChart({
  id,
  title,
  description,
  steps,
}: {
  id: string;
  title: string;
  description: string;
  steps: FunnelStep[];
}) {
  const H = steps.length * (BAR + GAP) - GAP + 16;
  const first = Math.max(steps[0]?.value ?? 0, 1);
  const maxW = W - 40;
  return (
    <ChartSvg id={id} title={title} description={description} width={W} height={H}>
      {steps.map((step, i) => {
        const w = Math.max(step.value > 0 ? 2 : 0, Math.round((step.value / first) * maxW));
        const y = 8 + i * (BAR + GAP);
        return (
          <g key={step.label} className="funnel-step">
            {i > 0 ? (
              <text x={W / 2} y={y - GAP / 2} dy="0.32em" textAnchor="middle" className="chart-rate">
                {`↓ ${formatPercent(step.rate)}`}
              </text>
            ) : null}
            <rect x={(W - w) / 2} y={y} width={w} height={BAR} rx={4} fill={SERIES_COLORS[i % SERIES_COLORS.length]} />
            {/* The label sits on a bar wide enough to hold it, else beside it. */}
            {w >= LABEL_ROOM ? (
              <text x={W / 2} y={y + BAR / 2} dy="0.32em" textAnchor="middle" className="funnel-label inside">
                {`${step.label}: ${formatCount(step.value)}`}
              </text>
            ) : (
              <text x={(W + w) / 2 + 8} y={y + BAR / 2} dy="0.32em" className="funnel-label">
                {`${step.label}: ${formatCount(step.value)}`}
              </text>
            )}
          </g>
        );
      })}
    </ChartSvg>
  );
}
