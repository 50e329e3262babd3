import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { DataTable } from "~/components/DataTable";
import { FieldError } from "~/components/Field";
import { Guard } from "~/components/Guard";
import { userLinks } from "~/components/user/styles";
import { listRoles } from "~/models/user.server";
import { listUsers, userFormOptions, type UserRow } from "~/models/dealer-user.server";
import { userFiltersSchema } from "~/schemas/user";
import { requireRouteAccess, type RouteAccess } from "~/utils/auth.server";
import { parseTableParams } from "~/utils/datatable.server";
import { EVERY_PERMISSION } from "~/utils/permissions";
import { parseQuery } from "~/utils/query.server";
import { isHeadOffice } from "~/models/scope.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "read-user" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Users" }];
export const links = userLinks;

/** GET /admin/user: the users the caller reaches (a branch user: its branch's), searchable, by role and branch. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const params = new URL(request.url).searchParams;
  const { value: filters, errors } = parseQuery(params, userFiltersSchema);
  return {
    table: listUsers(user.scope, parseTableParams(params), filters),
    roles: listRoles(),
    branches: isHeadOffice(user.scope) ? userFormOptions(user).branches : [],
    errors,
  };
}

export default function Users() {
  const { table, roles, branches, errors } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const headOffice = branches.length > 0;
  return (
    <>
      <div className="user-head">
        <h1>Users</h1>
        <Guard permission={EVERY_PERMISSION}>
          <Link to="/admin/role">Roles and permissions</Link>
        </Guard>
      </div>
      <DataTable<UserRow>
        rows={table.data}
        rowKey={(r) => r.slug}
        rowHref={(r) => `/admin/user/${r.slug}`}
        recordsFiltered={table.recordsFiltered}
        start={Number(params.get("start") ?? 0)}
        search={params.get("search") ?? ""}
        filters={
          <>
            <label>
              <span>Role</span>
              <select name="role_id" defaultValue={params.get("role_id") ?? ""}>
                <option value="">All roles</option>
                {roles.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.title}
                  </option>
                ))}
              </select>
              <FieldError errors={errors.role_id} />
            </label>
            {headOffice ? (
              <label>
                <span>Branch</span>
                <select name="branch_id" defaultValue={params.get("branch_id") ?? ""}>
                  <option value="">All branches</option>
                  <option value="head-office">Head Office</option>
                  {branches.map((b) => (
                    <option key={b.id} value={b.id}>
                      {b.title}
                    </option>
                  ))}
                </select>
                <FieldError errors={errors.branch_id} />
              </label>
            ) : null}
          </>
        }
        actions={
          <Guard permission="create-user">
            <Link to="/admin/user/create" className="button primary">
              Create
            </Link>
          </Guard>
        }
        columns={[
          { key: "name", header: "Name" },
          { key: "email", header: "Email" },
          { key: "role", header: "Role", render: (r) => r.role.title },
          { key: "branch", header: "Branch", render: (r) => r.branch?.title ?? "Head Office" },
        ]}
      />
    </>
  );
}
