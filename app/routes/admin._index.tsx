import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { label } from "~/utils/labels";
import { DateText } from "~/components/DateText";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { DataTable } from "~/components/DataTable";
import { RegistrationFilters } from "~/components/counter/RegistrationFilters";
import { counterLinks } from "~/components/counter/styles";
import { listBikeModels } from "~/models/bike-model.server";
import { listBranchOptions } from "~/models/branch.server";
import { dashboardStats } from "~/models/dashboard.server";
import { formatChange } from "~/models/labels";
import { prizeLabel } from "~/utils/prize-constants";
import { listRegistrations } from "~/models/registration-list.server";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { listPage, parseRegistrationQuery } from "~/http/list-query.server";
import { displayDateTime } from "~/utils/time";
import { isHeadOffice } from "~/models/scope.server";
import { openFlagCount } from "~/models/integrity-desk.server";
import { can } from "~/utils/permissions";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: null } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Dashboard" }];
export const links = counterLinks;

/** Spec 000 §9: the figures refresh every 60000 ms. */
const REFRESH_MS = 60_000;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const params = new URL(request.url).searchParams;
  const query = parseRegistrationQuery(params);
  const page = {
    stats: dashboardStats(user.scope),
    bikeModels: listBikeModels().map((m) => ({ id: m.id, title: m.title })),
    branches: isHeadOffice(user.scope) ? listBranchOptions() : null,
    branchTitle: user.branch?.title ?? null,
    // Head office's integrity desk (decision 21): how many flags wait; a branch is never told.
    openFlags: can(user, "review-integrity") ? openFlagCount(user.scope) : null,
    at: new Date().toISOString(),
  };
  // A Registered Buyers filter that cannot be read: its message under it, the figures as always.
  return listPage(params, query, (table, filters) => listRegistrations(user.scope, table, filters), page);
}

function Card({
  title,
  value,
  change,
  note,
  compare,
  link,
}: {
  title: string;
  /** Where the card's figures are listed in full. */
  link?: { to: string; label: string };
  value: number;
  change: number | null;
  note: string;
  compare: string;
}) {
  const trend = change === null || change === 0 ? "" : change > 0 ? " up" : " down";
  return (
    <section className="stat-card" aria-label={title}>
      <h2>{title}</h2>
      <p className="value">{value.toLocaleString("en-IN")}</p>
      <p className={`change${trend}`} title={note}>
        <span className="pct">{formatChange(change)}</span> <small>{compare}</small>
      </p>
      {link ? <Link to={link.to}>{link.label}</Link> : null}
    </section>
  );
}

export default function Dashboard() {
  const {
    stats,
    table: buyers,
    filterErrors,
    bikeModels,
    branches,
    branchTitle,
    openFlags,
    at,
  } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  useEffect(() => {
    const id = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") revalidator.revalidate();
    }, REFRESH_MS);
    return () => clearInterval(id);
  }, [revalidator]);
  return (
    <>
      <div className="dashboard-head">
        <h1>Dashboard{branchTitle ? ` · ${branchTitle}` : ""}</h1>
        <small>
          Kathmandu date <DateText day={stats.date} /> · updated {displayDateTime(at)}
        </small>
      </div>
      {openFlags !== null ? (
        <p className="integrity-count">
          <Link to="/admin/integrity">
            Integrity: {openFlags.toLocaleString("en-IN")} open flag{openFlags === 1 ? "" : "s"}
          </Link>
        </p>
      ) : null}
      <div className="stat-cards">
        <Card
          title="Total Sales"
          value={stats.total}
          change={stats.changes.total}
          compare="since yesterday"
          note={`${stats.sales_today} sold today on a total of ${stats.total - stats.sales_today} at the end of yesterday`}
        />
        <Card
          title="Pre-Registrations"
          value={stats.preregistrations}
          change={stats.changes.preregistrations}
          compare="since yesterday"
          note={`${stats.preregistrations_today} new today on a total of ${stats.preregistrations - stats.preregistrations_today} at the end of yesterday`}
        />
        <Card
          title="Daily Sales"
          value={stats.sales_today}
          change={stats.changes.sales}
          compare={`vs yesterday (${stats.sales_yesterday})`}
          note={`${stats.sales_today} today, ${stats.sales_yesterday} yesterday`}
        />
        <Card
          title="Test Rides"
          link={{ to: "/admin/test-ride", label: "See the test rides" }}
          value={stats.test_rides}
          change={stats.changes.test_rides}
          compare="since yesterday"
          note={`${stats.test_rides_today} new today on a total of ${stats.test_rides - stats.test_rides_today} at the end of yesterday`}
        />
      </div>
      <h2>Registered Buyers</h2>
      <DataTable
        table={buyers}
        rowKey={(r) => r.id}
        rowHref={(r) => `/admin/registration/${r.slug}`}
        searchErrors={filterErrors?.search}
        filters={
          <RegistrationFilters bikeModels={bikeModels} branches={branches} prizes={false} errors={filterErrors} />
        }
        columns={[
          { key: "name", wrap: true, header: "Name" },
          { key: "phone", header: "Phone" },
          { key: "model", wrap: true, header: "Model", render: (r) => r.bike_model.title },
          { key: "branch", wrap: true, header: "Branch", render: (r) => r.branch.title },
          {
            key: "payment_mode",
            wrap: true,
            header: "Payment Mode",
            render: (r) => label("payment_mode", r.payment_mode),
          },
          { key: "prize", header: "Total Prize", render: (r) => prizeLabel(r.prizes.total) },
          { key: "date", header: "Date of Purchase", render: (r) => <DateText day={r.purchase_date} /> },
        ]}
      />
    </>
  );
}
