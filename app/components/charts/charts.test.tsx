// The charts as the server renders them: an SVG image named by its <title> and described by its <desc>,
// one mark per figure, no NaN with nothing to draw; the axis arithmetic.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BarChart } from "./BarChart";
import { ChartTable } from "./ChartFigure";
import { FunnelChart } from "./FunnelChart";
import { LineChart } from "./LineChart";
import { formatCount, formatRupees, niceMax, shortFigure, ticks } from "./scale";

const count = (html: string, pattern: RegExp) => html.match(pattern)?.length ?? 0;

function expectAccessibleSvg(html: string, id: string, title: string) {
  expect(html).toContain(`role="img"`);
  expect(html).toContain(`aria-labelledby="${id}-title ${id}-desc"`);
  expect(html).toContain(`<title id="${id}-title">${title}</title>`);
  expect(html).toMatch(new RegExp(`<desc id="${id}-desc">[^<]+</desc>`));
  expect(html).not.toContain("NaN");
}

describe("scale", () => {
  it("rounds the axis up to 1, 2, 2.5 or 5 × 10^k and writes figures the Nepali way", () => {
    expect([0, 1, 3, 7, 11, 23, 240, 999, 1001].map(niceMax)).toEqual([1, 1, 5, 10, 20, 25, 250, 1000, 2000]);
    expect(ticks(20)).toEqual([0, 5, 10, 15, 20]);
    expect(ticks(2)).toEqual([0, 1, 2]);
    expect(formatCount(1234567)).toBe("12,34,567");
    expect(formatRupees(250000)).toBe("Rs. 2,50,000");
    expect([950, 1500, 250000, 12_000_000].map(shortFigure)).toEqual(["950", "1.5K", "2.5L", "1.2Cr"]);
  });
});

describe("charts", () => {
  const points = [
    { date: "2026-11-21", a: 3, b: 0 },
    { date: "2026-11-22", a: 5, b: 2 },
    { date: "2026-11-23", a: 0, b: 1 },
  ];

  it("a line chart: one line per series, one point per day with its figure", () => {
    const html = renderToStaticMarkup(
      <LineChart
        id="daily"
        title="Daily figures"
        description="Three days."
        series={[
          { key: "a", label: "Pre-registrations" },
          { key: "b", label: "Registrations" },
        ]}
        points={points}
      />,
    );
    expectAccessibleSvg(html, "daily", "Daily figures");
    expect(count(html, /<polyline/g)).toBe(2);
    expect(count(html, /<circle/g)).toBe(6);
    expect(html).toContain("<title>2026/11/22: 5 pre-registrations</title>");
  });

  it("a bar chart: a bar per figure, long labels shortened on the axis and whole in the tooltip", () => {
    const label = "A branch with a very long name indeed, longer than the axis";
    const html = renderToStaticMarkup(
      <BarChart
        id="branch"
        title="By branch"
        description="Two branches."
        series={["Pre-registrations", "Registrations"]}
        rows={[
          { key: 1, label, values: [10, 4] },
          { key: 2, label: "Short", values: [0, 0] },
        ]}
      />,
    );
    expectAccessibleSvg(html, "branch", "By branch");
    expect(count(html, /<rect/g)).toBe(4);
    expect(html).toContain(`<title>${label}</title>`);
    expect(html).toContain("A branch with a very long n…");
  });

  it("nothing to draw is an empty chart, not a broken one", () => {
    const bars = renderToStaticMarkup(<BarChart id="e" title="Empty" description="None." series={["X"]} rows={[]} />);
    expectAccessibleSvg(bars, "e", "Empty");
    const lines = renderToStaticMarkup(
      <LineChart
        id="z"
        title="Zero"
        description="None."
        series={[{ key: "a", label: "A" }]}
        points={[{ date: "2026-11-21", a: 0 }]}
      />,
    );
    expectAccessibleSvg(lines, "z", "Zero");
    const funnel = renderToStaticMarkup(
      <FunnelChart
        id="f"
        title="Funnel"
        description="Nothing yet."
        steps={[
          { label: "Pre-registered", value: 0, rate: null },
          { label: "Verified", value: 0, rate: null },
        ]}
      />,
    );
    expectAccessibleSvg(funnel, "f", "Funnel");
    expect(funnel).toContain("↓ —");
  });

  it("the funnel shows each step and the rate from the step before", () => {
    const html = renderToStaticMarkup(
      <FunnelChart
        id="funnel"
        title="Funnel"
        description="7, 6, 3."
        steps={[
          { label: "Pre-registered", value: 7, rate: null },
          { label: "Verified", value: 6, rate: 85.71 },
          { label: "Purchased", value: 3, rate: 50 },
        ]}
      />,
    );
    expectAccessibleSvg(html, "funnel", "Funnel");
    expect(html).toContain("Verified: 6");
    expect(html).toContain("↓ 85.71%");
    expect(html).toContain("↓ 50.00%");
  });

  it("the table beside a chart: a caption, row headers and a totals row", () => {
    const html = renderToStaticMarkup(
      <ChartTable
        caption="Figures by day"
        rows={points}
        rowKey={(r) => r.date}
        columns={[
          { header: "Date", cell: (r) => r.date },
          { header: "A", cell: (r) => r.a, numeric: true },
        ]}
        foot={["Total", 8]}
      />,
    );
    expect(html).toContain("<caption>Figures by day</caption>");
    expect(count(html, /<th scope="row">/g)).toBe(4);
    expect(html).toContain('<td class="num">8</td>');
  });
});
