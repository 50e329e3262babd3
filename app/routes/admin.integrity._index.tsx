import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { INTEGRITY_REASONS } from "@db/enums";
import { DataTable } from "~/components/DataTable";
import { DateText } from "~/components/DateText";
import {
  BranchFilter,
  DownloadLink,
  FilterErrors,
  FilterRange,
  FilterSelect,
  useFilterQuery,
} from "~/components/TableFilters";
import { counterLinks } from "~/components/counter/styles";
import { listBranchOptions } from "~/models/branch.server";
import { listFlags, staffOptions } from "~/models/integrity-desk.server";
import { lastIntegrityRun, recomputeNow } from "~/models/integrity-job.server";
import { FLAG_FILTER_KEYS, flagFiltersSchema } from "~/schemas/integrity";
import { requireIntent, requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { listPage, parseListQuery } from "~/http/list-query.server";
import { oops, redirectWithToast, success } from "~/http/toast.server";
import { label } from "~/utils/labels";

/** The permission this route needs (head office only, whatever a branch role holds), and its action's intents. */
export const handle = {
  permission: "review-integrity",
  intents: { recompute: null },
} satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Integrity" }];
export const links = counterLinks;

const STATUS_OPTIONS = [
  { value: "held", label: "Held" },
  { value: "cleared", label: "Cleared" },
  { value: "voided", label: "Voided" },
  { value: "all", label: "Every status" },
];

/**
 * GET /admin/integrity: the integrity flags (decision 21), strongest and newest first, open ones unless a
 * status is chosen; filters by reason, status, branch, staff user and the day raised; Flags.xls.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const params = new URL(request.url).searchParams;
  const query = parseListQuery(params, flagFiltersSchema);
  const run = lastIntegrityRun();
  return listPage(
    params,
    query,
    (table, filters) => listFlags(user.scope, table, { ...filters, status: filters.status ?? "open" }),
    {
      branches: listBranchOptions({ includeClosed: true }),
      staff: staffOptions(),
      lastRun: run?.last_finished_at ?? null,
    },
  );
}

/** POST intent=recompute: every signal computed again now (the schedule's job, on demand). */
export async function action({ request }: ActionFunctionArgs) {
  const { staff } = await requireIntent(request, handle);
  const done = await recomputeNow(staff);
  return redirectWithToast(
    "/admin/integrity",
    done
      ? success(`Recomputed in ${(done.ms / 1000).toFixed(1)} s: ${done.findings} findings, ${done.raised} new flags.`)
      : oops("A recompute is running already; try again in a minute."),
  );
}

export default function IntegrityDesk() {
  const { table, filterErrors, branches, staff, lastRun } = useLoaderData<typeof loader>();
  const download = `/api/v1/integrity/flags/download?${useFilterQuery(FLAG_FILTER_KEYS, filterErrors)}`;
  return (
    <>
      <h1>Integrity</h1>
      <p>
        Signals of what rules cannot stop, each with its evidence: a flag is a question, not a verdict. A prize an open
        or held flag names is not printed or announced until head office clears it.
      </p>
      <Form method="post" className="inline-actions">
        <button type="submit" name="intent" value="recompute">
          Recompute now
        </button>{" "}
        <span>
          Last computed: {lastRun ? <DateText at={lastRun} time /> : "not yet"} (every 15 minutes by the server)
        </span>
      </Form>
      <DataTable
        table={table}
        rowKey={(r) => String(r.id)}
        rowHref={(r) => `/admin/integrity/${r.id}`}
        searchLabel="Evidence"
        filters={
          <>
            <FilterErrors errors={filterErrors} shown={[...FLAG_FILTER_KEYS]} />
            <FilterSelect
              name="reason"
              label="Reason"
              all="All reasons"
              options={INTEGRITY_REASONS.map((r) => ({ value: r, label: label("integrity_reason", r) }))}
              errors={filterErrors?.reason}
            />
            <FilterSelect
              name="status"
              label="Status"
              all="Open"
              options={STATUS_OPTIONS}
              errors={filterErrors?.status}
            />
            <BranchFilter branches={branches} errors={filterErrors?.branch} />
            <FilterSelect name="user" label="Staff" all="All staff" options={staff} errors={filterErrors?.user} />
            <FilterRange errors={filterErrors} />
          </>
        }
        actions={<DownloadLink href={download} file="Flags.xls" />}
        columns={[
          { key: "raised_at", header: "Raised", render: (r) => <DateText at={r.raised_at} time /> },
          { key: "reason", header: "Reason", render: (r) => label("integrity_reason", r.reason) },
          { key: "strength", header: "Strength", render: (r) => Math.round(r.strength) },
          {
            key: "subject",
            wrap: true,
            header: "Subject",
            render: (r) => `${label("integrity_subject", r.subject_type)}: ${r.subject.label}`,
          },
          { key: "evidence", wrap: true, header: "Evidence", render: (r) => r.evidence.summary },
          { key: "branch", wrap: true, header: "Branch", render: (r) => r.branch?.title ?? "" },
          { key: "status", header: "Status", render: (r) => label("flag_status", r.status) },
        ]}
      />
    </>
  );
}
