import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { DateText } from "~/components/DateText";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import type { ReactNode } from "react";
import { DownloadLink, FilterDate, FilterSelect, useFilterQuery } from "~/components/TableFilters";
import { DataTable } from "~/components/DataTable";
import { Guard } from "~/components/Guard";
import { counterLinks } from "~/components/counter/styles";
import { listBikeModels } from "~/models/bike-model.server";
import { listBranchOptions } from "~/models/branch.server";
import { findAtCounter, listPreregistrations } from "~/models/preregistration-admin.server";
import { PREREGISTRATION_STATUSES, STATUS_LABELS } from "~/utils/preregistration-status";
import { screenColumns } from "~/models/preregistration-columns";
import { PRE_PRIZES, prizeLabel } from "~/utils/prize-constants";
import { preregistrationFiltersSchema, preregistrationSearchParam } from "~/schemas/preregistration";
import { parseQuery } from "~/http/query.server";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseTableParams } from "~/utils/datatable.server";
import { isHeadOffice } from "~/models/scope.server";
import { titledOptions } from "~/utils/options";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "read-registration" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Pre-Registrations" }];
export const links = counterLinks;

/**
 * The list of the user's reach. A full phone number in the search is the
 * customer at the counter: a public pre-registration with it is granted to the
 * branch first (over the user's hourly limit of such grants, the refusal shows under the search). A filter that is not one of its choices is reported at the
 * filter and the list shows without it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const params = new URL(request.url).searchParams;
  const headOffice = isHeadOffice(user.scope);
  const { value: filters, errors: filterErrors } = parseQuery(
    params,
    preregistrationFiltersSchema,
    preregistrationSearchParam(params),
  );
  const limited = findAtCounter(user, filters.phone);
  return {
    table: listPreregistrations(user.scope, parseTableParams(params), filters),
    filterErrors: limited ? { ...filterErrors, phone: [limited.message] } : filterErrors,
    headOffice,
    // Filters over past records offer retired models and closed branches too.
    bikeModels: listBikeModels({ includeRetired: true }).map((m) => ({ id: m.id, title: m.title })),
    branches: headOffice ? listBranchOptions({ includeClosed: true }) : null,
    statuses: PREREGISTRATION_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] })),
  };
}

const FILE_KEYS = ["bike_model", "branch", "from", "to", "prize", "status", "search"] as const;

/** A filter with its message under it, when the value given is not one of its choices. */
function Checked({ errors, children }: { errors?: string[]; children: ReactNode }) {
  if (!errors?.length) return <>{children}</>;
  return (
    <span className="filter invalid">
      {children}
      <small className="field-error" role="alert">
        {errors[0]}
      </small>
    </span>
  );
}

export default function Preregistrations() {
  const { table, filterErrors, headOffice, bikeModels, branches, statuses } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  // The search is read as `phone` (the spec's name): refused, it stays out of the Download link too.
  const query = useFilterQuery(FILE_KEYS, { ...filterErrors, search: filterErrors.phone });
  const errors = filterErrors as Record<string, string[] | undefined>;
  type Row = (typeof table.data)[number];
  // The file's columns that the screen shows (one list: app/models/preregistration-columns.ts), some drawn here.
  const drawn: Record<string, (r: Row) => ReactNode> = {
    prize: (r) => (r.prize ? prizeLabel(r.prize) : ""),
    branch: (r) => r.branch?.title ?? "Online",
    created_at: (r) => <DateText at={r.created_at} time />,
  };
  const columns = screenColumns(headOffice).map((c) => ({
    key: c.key,
    header: c.header,
    wrap: c.wrap,
    code: c.code,
    render: drawn[c.key] ?? c.value,
  }));
  return (
    <>
      <h1>Pre-Registrations</h1>
      <p>
        A customer&apos;s full phone number opens their entry here. {headOffice ? "Every branch's" : "Your branch's"}{" "}
        <Link to="/admin/preregistration/grants">counter grants</Link>: entries of other showrooms opened that way.
      </p>
      <DataTable
        table={table}
        rowKey={(r) => r.slug}
        rowHref={(r) => `/admin/preregistration/${r.slug}`}
        search={params.get("search") ?? params.get("phone") ?? ""}
        searchLabel="Phone or reference"
        searchErrors={errors.phone}
        filters={
          <>
            <Checked errors={errors.bike_model}>
              <FilterSelect name="bike_model" label="Model" options={titledOptions(bikeModels)} />
            </Checked>
            {branches ? (
              <Checked errors={errors.branch}>
                <FilterSelect name="branch" label="Branch" options={titledOptions(branches)} />
              </Checked>
            ) : null}
            <Checked errors={errors.status}>
              <FilterSelect name="status" label="Status" options={statuses} />
            </Checked>
            <Checked errors={errors.prize}>
              <FilterSelect
                name="prize"
                label="Prize"
                options={PRE_PRIZES.map((p) => ({ value: p.amount, label: p.label }))}
              />
            </Checked>
            <Checked errors={errors.from}>
              <FilterDate name="from" label="From" />
            </Checked>
            <Checked errors={errors.to}>
              <FilterDate name="to" label="To" />
            </Checked>
          </>
        }
        actions={
          <>
            <Guard permission="create-preregistration">
              <Link className="button primary" to="/admin/preregistration/create">
                Create
              </Link>
            </Guard>
            <DownloadLink
              href={`/api/v1/preregistration/download${query ? `?${query}` : ""}`}
              file="Preregistrations.xls"
            />
          </>
        }
        columns={columns}
      />
    </>
  );
}
