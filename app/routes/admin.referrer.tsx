import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { broadcastLinks } from "~/components/broadcast/styles";
import { DataTable } from "~/components/DataTable";
import { DownloadLink, FilterErrors, FilterRange, useFilterQuery } from "~/components/TableFilters";
import { referrerReport, type ReferrerRow } from "~/models/referrer.server";
import { referrerFiltersSchema, showReportDate } from "~/schemas/referrer";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { listPage, parseListQuery } from "~/http/list-query.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "read-registration" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Referrers" }];
export const links = broadcastLinks;

/**
 * GET /admin/referrer?from&to&search (read-registration): the referrer report
 * (spec 001 §2.12) for the From/To days; branch users see their branch's
 * customers. A date that does not read shows its message under its filter
 * (422) with no rows.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const params = new URL(request.url).searchParams;
  const query = parseListQuery(params, referrerFiltersSchema, {
    search: params.get("search[value]") ?? params.get("search"),
  });
  return listPage(params, query, (table, filters) => referrerReport(user.scope, table, filters));
}

function rangeLine(filters: { from?: string; to?: string } | null): string {
  if (!filters?.from && !filters?.to) return "The whole campaign.";
  if (filters.from && filters.to) return `From ${showReportDate(filters.from)} to ${showReportDate(filters.to, true)}.`;
  return filters.from ? `From ${showReportDate(filters.from)}.` : `Until ${showReportDate(filters.to!, true)}.`;
}

export default function Referrers() {
  const { table, filters, filterErrors } = useLoaderData<typeof loader>();
  const download = `/api/v1/referrer/download?${useFilterQuery(["from", "to", "search"])}`;
  return (
    <>
      <h1>Referrers</h1>
      <p className="report-range">
        Registered customers who brought others: registrations naming them as referrer, and test rides and
        pre-registrations made through their share link, in the range. {filterErrors ? "" : rangeLine(filters)}
      </p>
      <DataTable<ReferrerRow>
        table={table}
        rowKey={(r) => r.id}
        rowHref={(r) => `/admin/registration/${r.slug}`}
        searchLabel="Name"
        filters={
          <>
            <FilterErrors errors={filterErrors} shown={["from", "to", "search"]} />
            {/* The report counts by day (decision 16). */}
            <FilterRange errors={filterErrors} />
          </>
        }
        actions={<DownloadLink href={download} file="Referrers.xls" />}
        columns={[
          { key: "title", header: "Title" },
          { key: "branch", header: "Branch", render: (r) => r.branch.title },
          { key: "referrals_count", header: "Referrals" },
          { key: "test_rides_count", header: "Test Rides" },
          { key: "preregistrations_count", header: "Pre-Registrations" },
        ]}
      />
    </>
  );
}
