import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { ConfirmSubmit } from "~/components/ConfirmSubmit";
import { DataTable } from "~/components/DataTable";
import { FilterDate, FilterSelect } from "~/components/TableFilters";
import { probabilityText, rupees, typeLabel } from "~/components/scheme/format";
import { PayoutPreview } from "~/components/scheme/PayoutPreview";
import { SchemeNav } from "~/components/scheme/SchemeNav";
import { schemeLinks } from "~/components/scheme/styles";
import { type AllocationRow, deleteAllocation, listAllocations, payoutPreview } from "~/models/allocation.server";
import { branchOptionsInScope } from "~/models/branch.server";

import { ALLOCATION_TYPE_OPTIONS } from "~/utils/prize-constants";
import { requireIntent, requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseTableParams } from "~/utils/datatable.server";
import { schemePageFiltersSchema } from "~/schemas/allocation";
import { parseQuery } from "~/http/query.server";
import { displayDay, kathmanduDate } from "~/utils/time";
import { oops, redirectWithToast, success } from "~/http/toast.server";
import { titledOptions } from "~/utils/options";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "manage-allocation", intents: { delete: null } } as const satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Schemes" }];
export const links = schemeLinks;

const DEFAULT_PREVIEW_ENTRIES = 100;
const PREVIEW_KEYS = ["preview_date", "preview_branch", "entries"];
const LIST_KEYS = ["type", "branch_id", "date", "search"];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const params = new URL(request.url).searchParams;
  const branches = branchOptionsInScope(user.scope);

  const { value: filters, errors } = parseQuery(params, schemePageFiltersSchema);
  const { preview_date, preview_branch, entries, ...listFilters } = filters;
  const preview = payoutPreview(user.scope, {
    date: preview_date ?? kathmanduDate(),
    branchId: branches.some((b) => b.id === preview_branch) ? preview_branch! : null,
    entries: entries ?? DEFAULT_PREVIEW_ENTRIES,
  });

  return {
    table: listAllocations(user.scope, parseTableParams(params), listFilters),
    branches,
    preview,
    previewDate: params.get("preview_date")?.trim() ?? "",
    // A day that does not read is ignored, and said under its field.
    errors,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { form, staff: user } = await requireIntent(request, handle);
  const url = new URL(request.url);
  url.searchParams.delete("index");
  const query = url.searchParams.toString();
  const back = `/admin/scheme${query ? `?${query}` : ""}`;
  const result = deleteAllocation(user, Number(form.get("id")));
  return redirectWithToast(back, result.ok ? success("Scheme deleted.") : oops(result.message));
}

function DeleteRow({ row }: { row: AllocationRow }) {
  if (row.paid > 0) {
    return (
      <span className="muted" title="A scheme that has paid out cannot be deleted.">
        Paid out
      </span>
    );
  }
  return (
    // The row opens the detail on click; the delete question must not.
    <Form method="post" onClick={(e) => e.stopPropagation()}>
      <input type="hidden" name="id" value={row.id} />
      <ConfirmSubmit name="intent" value="delete" className="danger-quiet" message="Are you sure?">
        Delete
      </ConfirmSubmit>
    </Form>
  );
}

export default function Schemes() {
  const { table, branches, preview, previewDate, errors } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const pick = (keys: string[]): Record<string, string> =>
    Object.fromEntries(keys.flatMap((k) => (params.get(k) ? [[k, params.get(k)!]] : [])));
  return (
    <>
      <div className="scheme-head">
        <h1>Schemes</h1>
        <SchemeNav />
      </div>
      <div className="scheme-list">
        <DataTable
          table={table}
          rowKey={(r) => r.id}
          rowHref={(r) => `/admin/scheme/${r.id}`}
          filters={
            <>
              {Object.entries(pick(PREVIEW_KEYS)).map(([k, v]) => (
                <input key={k} type="hidden" name={k} value={v} />
              ))}
              <FilterSelect name="type" label="Type" all="All types" options={ALLOCATION_TYPE_OPTIONS} />
              <FilterSelect name="branch_id" label="Branch" all="All branches" options={titledOptions(branches)} />
              <FilterDate name="date" label="Date" errors={errors.date} />
            </>
          }
          actions={
            <Link to="/admin/scheme/create" className="button primary">
              Create
            </Link>
          }
          columns={[
            { key: "type", header: "Type", render: (r) => typeLabel(r.type) },
            { key: "branch", header: "Branch", render: (r) => r.branch?.title ?? "Public" },
            { key: "date", header: "Date", render: (r) => displayDay(r.date) },
            { key: "amount", header: "Amount", render: (r) => rupees(r.amount) },
            { key: "count", header: "Count" },
            {
              key: "probability",
              header: "Probability",
              wrap: true,
              render: (r) =>
                r.probability === 0 ? (
                  <span className="never-pays">{probabilityText(0)}</span>
                ) : (
                  probabilityText(r.probability)
                ),
            },
            { key: "paid", header: "Paid" },
            { key: "remaining", header: "Remaining" },
            { key: "actions", header: "Actions", hideHeader: true, render: (r) => <DeleteRow row={r} /> },
          ]}
        />
      </div>
      <PayoutPreview
        preview={preview}
        branches={branches}
        keep={pick(LIST_KEYS)}
        typedDate={previewDate}
        dateErrors={errors.preview_date}
      />
    </>
  );
}
