import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/DataTable";
import { DownloadLink, FilterRange, FilterSelect, useFilterQuery } from "~/components/TableFilters";
import { DrawAudit } from "~/components/scheme/DrawAudit";
import { OUTCOME_LABELS, rupees, THRILL_LABELS, typeLabel } from "~/components/scheme/format";
import { SchemeNav } from "~/components/scheme/SchemeNav";
import { schemeLinks } from "~/components/scheme/styles";
import { ALLOCATION_TYPE_OPTIONS } from "~/utils/prize-constants";
import { listDraws, type DrawListRow } from "~/models/draw-audit.server";
import { branchOptionsInScope } from "~/models/branch.server";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseTableParams } from "~/utils/datatable.server";
import { parseQuery } from "~/http/query.server";
import { drawFiltersSchema } from "~/schemas/draw";
import { displayDateTime, displayDay } from "~/utils/time";
import { titledOptions } from "~/utils/options";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "manage-allocation" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Draw audit" }];
export const links = schemeLinks;

const FILTER_KEYS = ["from", "to", "pool_type", "branch_id", "outcome", "thrill", "search"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const params = new URL(request.url).searchParams;
  // A From or To that does not read is left out, and said under its field.
  const { value: filters, errors } = parseQuery(params, drawFiltersSchema);
  return {
    table: listDraws(user.scope, parseTableParams(params), filters),
    branches: branchOptionsInScope(user.scope),
    errors,
  };
}

function EntryCell({ row }: { row: DrawListRow }) {
  if (!row.entry) return <span className="muted">{`${row.entry_type} #${row.entry_id}`}</span>;
  const area = row.entry_type === "preregistration" ? "preregistration" : "registration";
  return (
    <Link to={`/admin/${area}/${row.entry.slug}`}>
      {row.entry.name} <small className="muted">{row.entry.phone}</small>
    </Link>
  );
}

export default function DrawAuditPage() {
  const { table, branches, errors } = useLoaderData<typeof loader>();
  const query = useFilterQuery(FILTER_KEYS, errors);
  const download = `/api/v1/draws/download${query ? `?${query}` : ""}`;
  return (
    <>
      <div className="scheme-head">
        <h1>Draw audit</h1>
        <SchemeNav />
      </div>
      <p className="muted">
        Every second- and third-thrill draw: the pools it considered with their remaining prizes, each value rolled and
        the outcome. Dates are Kathmandu calendar days.
      </p>
      <div className="scheme-draws">
        <DataTable
          table={table}
          rowKey={(r) => r.id}
          searchLabel="Search name or phone"
          filters={
            <>
              {/* A draw is filed under its pools' day. */}
              <FilterRange errors={errors} />
              <FilterSelect name="pool_type" label="Pool type" all="All pool types" options={ALLOCATION_TYPE_OPTIONS} />
              <FilterSelect name="branch_id" label="Branch" all="All branches" options={titledOptions(branches)} />
              <FilterSelect
                name="outcome"
                label="Outcome"
                all="All outcomes"
                options={Object.entries(OUTCOME_LABELS).map(([value, label]) => ({ value, label }))}
              />
            </>
          }
          actions={<DownloadLink href={download} file="Draws.xls" />}
          columns={[
            { key: "id", header: "ID" },
            { key: "created_at", header: "Time", render: (r) => displayDateTime(r.created_at) },
            { key: "entry", header: "Entry", wrap: true, render: (r) => <EntryCell row={r} /> },
            { key: "thrill", header: "Thrill", render: (r) => THRILL_LABELS[r.thrill] ?? r.thrill },
            { key: "outcome", header: "Outcome", render: (r) => OUTCOME_LABELS[r.outcome] ?? r.outcome },
            { key: "amount", header: "Amount", render: (r) => rupees(r.amount) },
            { key: "audit", header: "Pools and rolls", render: (r) => <DrawAudit pools={r.pools} rolls={r.rolls} /> },
            { key: "pool_type", header: "Pool type", wrap: true, render: (r) => typeLabel(r.pool_type) },
            { key: "branch", header: "Branch", wrap: true, render: (r) => r.branch?.title ?? "Public" },
            { key: "date", header: "Date", render: (r) => displayDay(r.date) },
          ]}
        />
      </div>
    </>
  );
}
