import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { FilterSelect } from "~/components/TableFilters";
import { DataTable } from "~/components/DataTable";
import { CreateLink, Guard } from "~/components/Guard";
import { userLinks } from "~/components/user/styles";
import { listRoles } from "~/models/user.server";
import { listUsers, userFormOptions, type UserRow } from "~/models/dealer-user.server";
import { userFiltersSchema } from "~/schemas/user";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseTableParams } from "~/utils/datatable.server";
import { EVERY_PERMISSION } from "~/utils/permissions";
import { parseQuery } from "~/http/query.server";
import { isHeadOffice } from "~/models/scope.server";
import { titledOptions } from "~/utils/options";

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
        table={table}
        rowKey={(r) => r.slug}
        rowHref={(r) => `/admin/user/${r.slug}`}
        filters={
          <>
            <FilterSelect
              name="role_id"
              label="Role"
              all="All roles"
              options={titledOptions(roles)}
              errors={errors.role_id}
            />
            {headOffice ? (
              <FilterSelect
                name="branch_id"
                label="Branch"
                all="All branches"
                options={[{ value: "head-office", label: "Head Office" }, ...titledOptions(branches)]}
                errors={errors.branch_id}
              />
            ) : null}
          </>
        }
        actions={<CreateLink to="/admin/user/create" permission="create-user" />}
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
