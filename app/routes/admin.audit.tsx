import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { DataTable } from "~/components/DataTable";
import { DownloadLink, FilterRange, FilterSelect, useFilterQuery } from "~/components/TableFilters";
import { auditFacets, listAudit, readableAudit, type ReadableAuditEntry as Row } from "~/models/audit.server";
import { auditFiltersSchema } from "~/schemas/audit";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseTableParams } from "~/utils/datatable.server";
import { EVERY_PERMISSION } from "~/utils/permissions";
import { parseQuery } from "~/http/query.server";
import { displayDateTime } from "~/utils/time";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: EVERY_PERMISSION } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Audit Trail" }];

/**
 * GET /admin/audit: every back-office change and login, newest first, with
 * who, when, from where and what changed; filters by action, record type, user
 * and Kathmandu dates; a download of the same. Read only: nothing here (or
 * anywhere) changes or deletes the trail.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess(request, handle);
  const params = new URL(request.url).searchParams;
  const { value: filters, errors } = parseQuery(params, auditFiltersSchema);
  const table = listAudit(parseTableParams(params), filters);
  return {
    table: { ...table, data: readableAudit(table.data) },
    facets: auditFacets(),
    errors,
  };
}

/** A change of one short line reads as it is; more opens from the fields it names (no script needed). */
function AuditChanges({ lines }: { lines: string[] }) {
  if (!lines.length) return null;
  if (lines.length === 1 && lines[0].length <= 60) return <span className="audit-changes">{lines[0]}</span>;
  const fields = lines.map((l) => l.slice(0, l.indexOf(":") > 0 ? l.indexOf(":") : undefined));
  return (
    <details className="audit-changes">
      <summary>
        {lines.length === 1 ? "1 change" : `${lines.length} changes`}: {fields.join(", ")}
      </summary>
      <ul>
        {lines.map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </ul>
    </details>
  );
}

export default function AuditTrail() {
  const { table, facets, errors } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const download = `/api/v1/audit/download?${useFilterQuery(["action", "entity_type", "user", "from", "to", "search"], errors)}`;
  return (
    <>
      <h1>Audit Trail</h1>
      <DataTable<Row>
        table={table as { data: Row[]; recordsFiltered: number }}
        rowKey={(r) => r.id}
        filters={
          <>
            <FilterSelect
              name="action"
              label="Action"
              all="All actions"
              options={facets.actions.map((a) => ({ value: a.value, label: a.label }))}
            />
            <FilterSelect
              name="entity_type"
              label="Record"
              all="All records"
              options={facets.entityTypes.map((t) => ({ value: t.value, label: t.label }))}
            />
            <label>
              <span>User</span>
              <input name="user" defaultValue={params.get("user") ?? ""} />
            </label>
            <FilterRange errors={errors} />
          </>
        }
        actions={<DownloadLink href={download} />}
        columns={[
          { key: "at", header: "Time", render: (r) => displayDateTime(r.at) },
          { key: "user_email", header: "User", render: (r) => r.user_email ?? "—" },
          { key: "address", header: "Address", render: (r) => r.address ?? "" },
          { key: "action", wrap: true, header: "Action", render: (r) => r.action_label },
          {
            key: "entity",
            wrap: true,
            header: "Record",
            render: (r) => (r.record_href ? <Link to={r.record_href}>{r.record}</Link> : r.record),
          },
          {
            key: "summary",
            wrap: true,
            long: true,
            header: "Changes",
            render: (r) => <AuditChanges lines={r.changes_list} />,
          },
        ]}
      />
    </>
  );
}
