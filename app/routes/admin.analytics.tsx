import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { BarChart } from "~/components/charts/BarChart";
import { ChartFigure, ChartTable } from "~/components/charts/ChartFigure";
import { DayInput } from "~/components/DayInput";
import { FunnelChart } from "~/components/charts/FunnelChart";
import { LineChart } from "~/components/charts/LineChart";
import { formatCount, formatPercent, formatRupees, slashDate } from "~/components/charts/scale";
import { chartLinks } from "~/components/charts/styles";
import { rate, type Analytics, type Change } from "~/models/analytics";
import { campaignAnalytics } from "~/models/analytics.server";
import { formatChange } from "~/models/labels";
import { analyticsRangeSchema } from "~/schemas/analytics";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseQuery } from "~/http/query.server";
import { kathmanduDate, shiftDate } from "~/utils/time";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "send-sms" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Analytics" }];
export const links = chartLinks;

/** Bars drawn per breakdown chart; the table beside it lists every row. */
const CHART_ROWS = 12;

const RANGE_INVALID = "The dates could not be read, so the campaign so far is shown.";

/**
 * GET /admin/analytics?from&to: the campaign's figures for a range of
 * Kathmandu days (default: the campaign so far), against the previous period
 * of the same length. A date that does not read shows its message under its
 * field and the page shows the default range (422, as the lists answer).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const params = new URL(request.url).searchParams;
  const { value, errors } = parseQuery(params, analyticsRangeSchema);
  const invalid = Object.keys(errors).length > 0;
  const figures = await campaignAnalytics(user.scope, invalid ? {} : value);
  const today = kathmanduDate();
  const page = {
    figures,
    errors,
    typed: { from: params.get("from") ?? "", to: params.get("to") ?? "" },
    branchTitle: user.branch?.title ?? null,
    quick: [
      { label: "Campaign so far", href: "/admin/analytics" },
      { label: "Last 7 days", href: `/admin/analytics?from=${shiftDate(today, -6)}&to=${today}` },
      { label: "Last 30 days", href: `/admin/analytics?from=${shiftDate(today, -29)}&to=${today}` },
    ],
  };
  return invalid ? data(page, { status: 422 }) : page;
}

function Card({ title, figure, money = false }: { title: string; figure: Change; money?: boolean }) {
  const trend = figure.change === null || figure.change === 0 ? "" : figure.change > 0 ? " up" : " down";
  const show = money ? formatRupees : formatCount;
  return (
    <section className="analytics-card" aria-label={title}>
      <h3>{title}</h3>
      <p className="value">{show(figure.value)}</p>
      <p className={`change${trend}`}>
        <span className="pct">{formatChange(figure.change)}</span>{" "}
        <small>
          {/* A first period has nothing to compare with: said once, not as "vs (0)". */}
          {figure.previous === 0 ? "nothing in the previous period" : `vs previous period (${show(figure.previous)})`}
        </small>
      </p>
    </section>
  );
}

function RangeForm({
  figures,
  errors,
  typed,
  quick,
}: {
  figures: Analytics;
  errors: Record<string, string[]>;
  typed: { from: string; to: string };
  quick: { label: string; href: string }[];
}) {
  const invalid = Object.keys(errors).length > 0;
  const field = (name: "from" | "to", label: string) => {
    const error = errors[name]?.[0];
    return (
      <label className={error ? "invalid" : undefined}>
        <span id={`range-${name}-label`}>{label}</span>
        <DayInput
          name={name}
          aria-labelledby={`range-${name}-label`}
          defaultValue={typed[name] || (invalid ? "" : figures.range[name])}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `range-${name}-error` : undefined}
        />
        {error ? (
          <span className="field-error" id={`range-${name}-error`} role="alert">
            {error}
          </span>
        ) : null}
      </label>
    );
  };
  return (
    <Form method="get" className="analytics-range" aria-label="Date range">
      {field("from", "From")}
      {field("to", "To")}
      <button type="submit" className="primary">
        Show
      </button>
      <nav aria-label="Quick ranges" className="analytics-quick">
        {quick.map((q) => (
          <Link key={q.label} to={q.href}>
            {q.label}
          </Link>
        ))}
      </nav>
      {invalid ? (
        <p className="form-error" role="alert">
          {RANGE_INVALID}
        </p>
      ) : null}
    </Form>
  );
}

/** The questions the page answers, in its order: each a section one can jump to from the list at the top. */
const QUESTIONS = [
  { id: "overview", question: "How is the campaign going?", short: "Overview" },
  { id: "funnel", question: "How many pre-registrations become sales?", short: "Funnel" },
  { id: "prizes", question: "What have the prizes cost?", short: "Prizes" },
  { id: "sellers", question: "Which branches and bike models sell?", short: "Branches and models" },
  {
    id: "buyers",
    question: "How did buyers hear of the campaign, and how did they pay?",
    short: "Sources and payment",
  },
] as const;

type QuestionId = (typeof QUESTIONS)[number]["id"];

/** A link to a part of this page (the range kept): the router scrolls to it with JavaScript, the browser without. */
function JumpLink({ to, ...rest }: { to: string; className?: string; title?: string; children: ReactNode }) {
  const { search } = useLocation();
  return <Link to={{ search, hash: to }} {...rest} />;
}

function Question({ id, lead, children }: { id: QuestionId; lead: string; children: ReactNode }) {
  const q = QUESTIONS.find((x) => x.id === id)!;
  return (
    <section id={id} className="analytics-question" aria-labelledby={`${id}-question`}>
      <h2 id={`${id}-question`}>{q.question}</h2>
      <p className="muted">{lead}</p>
      {children}
      <JumpLink className="to-top" to="analytics-questions">
        Back to the questions
      </JumpLink>
    </section>
  );
}

function Questions() {
  return (
    <nav id="analytics-questions" className="analytics-toc" aria-label="Questions on this page">
      <ol>
        {QUESTIONS.map((q) => (
          <li key={q.id}>
            <JumpLink to={q.id} title={q.question}>
              {q.short}
            </JumpLink>
          </li>
        ))}
      </ol>
    </nav>
  );
}

const count = (n: number) => formatCount(n);
const rupees = (n: number) => formatRupees(n);

export default function AnalyticsPage() {
  const { figures, errors, typed, branchTitle, quick } = useLoaderData<typeof loader>();
  const { range, previous, totals, daily, funnel, prizes } = figures;
  const span = `${slashDate(range.from)} to ${slashDate(range.to)}`;
  const dayWord = (n: number) => `${n} day${n === 1 ? "" : "s"}`;

  const dailyTotals = {
    preregistrations: totals.preregistrations.value,
    verifications: totals.verifications.value,
    registrations: totals.registrations.value,
    test_rides: totals.test_rides.value,
  };
  const branchRows = figures.by_branch;
  const branchValues = (r: (typeof branchRows)[number]) => [r.preregistrations, r.registrations, r.test_rides];
  const modelRows = figures.by_model;
  const modelValues = (r: (typeof modelRows)[number]) => [r.preregistrations, r.registrations, r.test_rides];
  const sourceRows = figures.by_source;
  const sourceValues = (r: (typeof sourceRows)[number]) => [r.preregistrations, r.verified, r.purchased];
  const paymentRows = figures.by_payment_mode;
  const paymentTotal = paymentRows.reduce((s, r) => s + r.registrations, 0);
  /**
   * A chart draws the rows with something in the range, at most CHART_ROWS of them; the rows with
   * nothing are folded into the note (the table lists every row).
   */
  const drawn = <Row,>(rows: Row[], values: (r: Row) => number[]) =>
    rows.filter((r) => values(r).some((v) => v > 0)).slice(0, CHART_ROWS);
  const drawnNote = <Row extends { title?: string; label?: string }>(rows: Row[], values: (r: Row) => number[]) => {
    const quiet = rows.filter((r) => !values(r).some((v) => v > 0)).map((r) => r.title ?? r.label ?? "");
    const active = rows.length - quiet.length;
    return [
      active > CHART_ROWS ? `The chart shows the first ${CHART_ROWS} of ${active}; the table lists them all.` : "",
      quiet.length ? `Nothing in the range, so not drawn: ${quiet.join(", ")}.` : "",
    ]
      .filter(Boolean)
      .join(" ");
  };
  const leader = <Row extends { title?: string; label?: string }>(
    rows: Row[],
    value: (r: Row) => number,
    what: string,
  ) =>
    rows.length && value(rows[0]) > 0
      ? `Highest: ${rows[0].title ?? rows[0].label}, ${formatCount(value(rows[0]))} ${what}.`
      : `No ${what} in the range.`;

  return (
    <div className="analytics">
      <div className="analytics-head">
        <h1>Analytics{branchTitle ? ` · ${branchTitle}` : ""}</h1>
        <p className="muted">
          {figures.default_range ? "The campaign so far: " : ""}
          {span} ({dayWord(range.days)}, Kathmandu days), compared with {slashDate(previous.from)} to{" "}
          {slashDate(previous.to)}.
        </p>
      </div>
      <RangeForm figures={figures} errors={errors} typed={typed} quick={quick} />
      <Questions />

      <Question id="overview" lead="The range's totals against the period before, then day by day.">
        <div className="analytics-cards">
          <Card title="Pre-Registrations" figure={totals.preregistrations} />
          <Card title="Verifications" figure={totals.verifications} />
          <Card title="Registrations (sales)" figure={totals.registrations} />
          <Card title="Test Rides" figure={totals.test_rides} />
          <Card title="Prize Money" figure={totals.prize_money} money />
        </div>

        <ChartFigure
          id="chart-daily"
          heading="Day by day"
          chart={
            <LineChart
              id="chart-daily"
              title={`Daily pre-registrations, verifications, registrations and test rides, ${span}`}
              description={`Over ${dayWord(range.days)}: ${count(dailyTotals.preregistrations)} pre-registrations, ${count(dailyTotals.verifications)} verifications, ${count(dailyTotals.registrations)} registrations and ${count(dailyTotals.test_rides)} test rides.`}
              series={[
                { key: "preregistrations", label: "Pre-registrations" },
                { key: "verifications", label: "Verifications" },
                { key: "registrations", label: "Registrations" },
                { key: "test_rides", label: "Test rides" },
              ]}
              points={daily}
            />
          }
          table={
            <ChartTable
              caption="Figures by Kathmandu day"
              rows={daily}
              rowKey={(r) => r.date}
              columns={[
                { header: "Date", cell: (r) => slashDate(r.date) },
                { header: "Pre-registrations", cell: (r) => count(r.preregistrations), numeric: true },
                { header: "Verifications", cell: (r) => count(r.verifications), numeric: true },
                { header: "Registrations", cell: (r) => count(r.registrations), numeric: true },
                { header: "Test rides", cell: (r) => count(r.test_rides), numeric: true },
              ]}
              foot={[
                "Total",
                count(dailyTotals.preregistrations),
                count(dailyTotals.verifications),
                count(dailyTotals.registrations),
                count(dailyTotals.test_rides),
              ]}
            />
          }
          note="Verifications count the pre-registrations verified on the day, whenever they were made."
        />
      </Question>

      <Question
        id="funnel"
        lead="Of the pre-registrations made in the range: how many were verified, and how many bought."
      >
        <ChartFigure
          id="chart-funnel"
          heading="Funnel"
          chart={
            <FunnelChart
              id="chart-funnel"
              title={`Funnel of the pre-registrations made ${span}: pre-registered, verified, purchased`}
              description={`${count(funnel.preregistered)} pre-registered; ${count(funnel.verified)} verified (${formatPercent(funnel.rates.verified)}); ${count(funnel.purchased)} purchased (${formatPercent(funnel.rates.purchased)} of the verified, ${formatPercent(funnel.rates.overall)} of all).`}
              steps={[
                { label: "Pre-registered", value: funnel.preregistered, rate: null },
                { label: "Verified", value: funnel.verified, rate: funnel.rates.verified },
                { label: "Purchased", value: funnel.purchased, rate: funnel.rates.purchased },
              ]}
            />
          }
          table={
            <ChartTable
              caption="Funnel steps and rates"
              rows={[
                {
                  step: "Pre-registered",
                  n: funnel.preregistered,
                  fromBefore: null,
                  ofAll: rate(funnel.preregistered, funnel.preregistered),
                },
                {
                  step: "Verified",
                  n: funnel.verified,
                  fromBefore: funnel.rates.verified,
                  ofAll: funnel.rates.verified,
                },
                {
                  step: "Purchased",
                  n: funnel.purchased,
                  fromBefore: funnel.rates.purchased,
                  ofAll: funnel.rates.overall,
                },
              ]}
              rowKey={(r) => r.step}
              columns={[
                { header: "Step", cell: (r) => r.step },
                { header: "Count", cell: (r) => count(r.n), numeric: true },
                {
                  header: "Rate from the step before",
                  cell: (r) => (r.fromBefore === null ? "" : formatPercent(r.fromBefore)),
                  numeric: true,
                },
                { header: "Of pre-registered", cell: (r) => formatPercent(r.ofAll), numeric: true },
              ]}
            />
          }
          note="Of the pre-registrations made in the range: how many were verified, and how many were bought (a registration that is not deleted), whenever that happened."
        />
      </Question>

      <Question id="prizes" lead="The prize money paid in the range, by thrill and against what the schemes allow.">
        <ChartFigure
          id="chart-thrill"
          heading="Prize money by thrill"
          chart={
            <BarChart
              id="chart-thrill"
              title={`Prize money paid by thrill, ${span}`}
              description={`${rupees(prizes.total)} in all: ${prizes.by_thrill.map((t) => `${t.label} ${rupees(t.amount)}`).join("; ")}.`}
              series={["Amount"]}
              rows={prizes.by_thrill.map((t) => ({ key: t.thrill, label: t.label, values: [t.amount] }))}
              format={rupees}
            />
          }
          table={
            <ChartTable
              caption="Prize money by thrill"
              rows={prizes.by_thrill}
              rowKey={(r) => r.thrill}
              columns={[
                { header: "Thrill", cell: (r) => r.label },
                { header: "Winners", cell: (r) => count(r.count), numeric: true },
                { header: "Amount", cell: (r) => rupees(r.amount), numeric: true },
              ]}
              foot={["Total", count(prizes.by_thrill.reduce((s, t) => s + t.count, 0)), rupees(prizes.total)]}
            />
          }
          note="First thrill: Rs. 1,000 for each pre-registration verified in the range that was shared. Second thrill: the prizes of the pre-registrations verified in the range. Third thrill: the coupons drawn in the range."
        />

        <ChartFigure
          id="chart-schemes"
          heading="Prize money by scheme type, against what the schemes allow"
          chart={
            <BarChart
              id="chart-schemes"
              title={`Prize money by scheme type against the schemes' allowance, ${span}`}
              description={prizes.by_type
                .map(
                  (t) =>
                    `${t.label}: allowed ${t.allowed === null ? "not this branch's" : rupees(t.allowed)}, paid from pools ${rupees(t.pool_amount)}, paid by fallback ${rupees(t.fallback_amount)}`,
                )
                .join("; ")}
              series={["Allowed by the schemes", "Paid from pools", "Paid by fallback"]}
              colors={["#9aa0a6", "#0072B2", "#E69F00"]}
              rows={prizes.by_type.map((t) => ({
                key: t.type,
                label: t.label,
                values: [t.allowed ?? 0, t.pool_amount, t.fallback_amount],
              }))}
              format={rupees}
            />
          }
          table={
            <ChartTable
              caption="Prize money by scheme type"
              rows={prizes.by_type}
              rowKey={(r) => r.type}
              columns={[
                { header: "Type", cell: (r) => r.label },
                {
                  header: "Allowed (count × amount)",
                  cell: (r) => (r.allowed === null ? "Head office's pools" : rupees(r.allowed)),
                  numeric: true,
                },
                {
                  header: "Prizes allowed",
                  cell: (r) => (r.allowed_count === null ? "—" : count(r.allowed_count)),
                  numeric: true,
                },
                { header: "Pool prizes won", cell: (r) => count(r.pool_count), numeric: true },
                { header: "Paid from pools", cell: (r) => rupees(r.pool_amount), numeric: true },
                {
                  header: "Used of allowed",
                  cell: (r) => (r.allowed === null ? "—" : formatPercent(rate(r.pool_amount, r.allowed))),
                  numeric: true,
                },
                { header: "Fallback draws", cell: (r) => count(r.fallback_count), numeric: true },
                { header: "Paid by fallback", cell: (r) => rupees(r.fallback_amount), numeric: true },
                { header: "Draws without prize", cell: (r) => count(r.none_count), numeric: true },
              ]}
            />
          }
          note="Allowed: the sum of count × amount of the prize pools dated in the range. Fallback: the base table paid when no pool was won."
        />
      </Question>

      <Question id="sellers" lead="Pre-registrations, registrations and test rides by branch and by bike model.">
        <ChartFigure
          id="chart-branch"
          heading="By branch"
          chart={
            <BarChart
              id="chart-branch"
              title={`Pre-registrations, registrations and test rides by branch, ${span}`}
              description={leader(branchRows, (r) => r.registrations, "registrations")}
              series={["Pre-registrations", "Registrations", "Test rides"]}
              rows={drawn(branchRows, branchValues).map((r) => ({
                key: r.id ?? "none",
                label: r.title,
                values: [r.preregistrations, r.registrations, r.test_rides],
              }))}
            />
          }
          table={
            <ChartTable
              caption="Figures by branch"
              rows={branchRows}
              rowKey={(r) => r.id ?? "none"}
              columns={[
                { header: "Branch", cell: (r) => r.title },
                { header: "Pre-registrations", cell: (r) => count(r.preregistrations), numeric: true },
                { header: "Verified", cell: (r) => count(r.verified), numeric: true },
                { header: "Purchased", cell: (r) => count(r.purchased), numeric: true },
                { header: "Registrations", cell: (r) => count(r.registrations), numeric: true },
                { header: "Test rides", cell: (r) => count(r.test_rides), numeric: true },
              ]}
            />
          }
          note={
            <>
              A pre-registration counts for the branch it was made at, or the showroom a public one named.{" "}
              {drawnNote(branchRows, branchValues)}
            </>
          }
        />

        <ChartFigure
          id="chart-model"
          heading="By bike model"
          chart={
            <BarChart
              id="chart-model"
              title={`Pre-registrations, registrations and test rides by bike model, ${span}`}
              description={leader(modelRows, (r) => r.registrations, "registrations")}
              series={["Pre-registrations", "Registrations", "Test rides"]}
              rows={drawn(modelRows, modelValues).map((r) => ({
                key: r.id ?? "none",
                label: r.title,
                values: [r.preregistrations, r.registrations, r.test_rides],
              }))}
            />
          }
          table={
            <ChartTable
              caption="Figures by bike model"
              rows={modelRows}
              rowKey={(r) => r.id ?? "none"}
              columns={[
                { header: "Bike model", cell: (r) => r.title },
                { header: "Pre-registrations", cell: (r) => count(r.preregistrations), numeric: true },
                { header: "Registrations", cell: (r) => count(r.registrations), numeric: true },
                { header: "Test rides", cell: (r) => count(r.test_rides), numeric: true },
              ]}
            />
          }
          note={drawnNote(modelRows, modelValues) || undefined}
        />
      </Question>

      <Question id="buyers" lead="Where the pre-registrations heard of the campaign, and how the registrations paid.">
        <ChartFigure
          id="chart-source"
          heading="By source of information"
          chart={
            <BarChart
              id="chart-source"
              title={`Pre-registrations by source of information, ${span}`}
              description={leader(sourceRows, (r) => r.preregistrations, "pre-registrations")}
              series={["Pre-registrations", "Verified", "Purchased"]}
              rows={drawn(sourceRows, sourceValues).map((r) => ({
                key: r.source ?? "none",
                label: r.label,
                values: [r.preregistrations, r.verified, r.purchased],
              }))}
            />
          }
          table={
            <ChartTable
              caption="Pre-registrations by source of information"
              rows={sourceRows}
              rowKey={(r) => r.source ?? "none"}
              columns={[
                { header: "Source", cell: (r) => r.label },
                { header: "Pre-registrations", cell: (r) => count(r.preregistrations), numeric: true },
                { header: "Verified", cell: (r) => count(r.verified), numeric: true },
                { header: "Purchased", cell: (r) => count(r.purchased), numeric: true },
                {
                  header: "Purchased of pre-registered",
                  cell: (r) => formatPercent(rate(r.purchased, r.preregistrations)),
                  numeric: true,
                },
              ]}
            />
          }
          note={drawnNote(sourceRows, sourceValues) || undefined}
        />

        <ChartFigure
          id="chart-payment"
          heading="By payment mode"
          chart={
            <BarChart
              id="chart-payment"
              title={`Registrations by payment mode, ${span}`}
              description={leader(
                [...paymentRows].sort((a, b) => b.registrations - a.registrations),
                (r) => r.registrations,
                "registrations",
              )}
              series={["Registrations"]}
              rows={paymentRows.map((r) => ({ key: r.payment_mode, label: r.label, values: [r.registrations] }))}
            />
          }
          table={
            <ChartTable
              caption="Registrations by payment mode"
              rows={paymentRows}
              rowKey={(r) => r.payment_mode}
              columns={[
                { header: "Payment mode", cell: (r) => r.label },
                { header: "Registrations", cell: (r) => count(r.registrations), numeric: true },
                { header: "Share", cell: (r) => formatPercent(rate(r.registrations, paymentTotal)), numeric: true },
              ]}
              foot={["Total", count(paymentTotal), paymentTotal ? "100.00%" : "—"]}
            />
          }
        />
      </Question>
    </div>
  );
}
