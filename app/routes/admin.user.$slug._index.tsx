import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DeleteForm } from "~/components/ConfirmSubmit";
import { userLinks } from "~/components/user/styles";
import { SEX_LABELS } from "~/schemas/user";
import { deleteUser, findUser, holdsAll } from "~/models/dealer-user.server";
import { requireIntent, requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { notFound } from "~/http/http.server";
import { can } from "~/utils/permissions";
import { oops, redirectWithToast, success } from "~/http/toast.server";
import { DetailList, type DetailRow } from "~/components/DetailList";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "read-user", intents: { delete: "update-user" } } as const satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "User" }];
export const links = userLinks;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const found = findUser(user.scope, params.slug!);
  if (!found) throw notFound();
  // Edit and Delete show when the model would allow them; it checks again on every change.
  const manageable = can(user, "update-user") && holdsAll(user.permissions, found.permissions);
  const { id, ...shown } = found;
  return { user: shown, canEdit: manageable, canDelete: manageable && id !== user.id };
}

/** intent=delete (update-user): deletes the user and returns to /admin/user. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { staff: user } = await requireIntent(request, handle);
  const here = `/admin/user/${params.slug}`;
  const result = deleteUser(user, params.slug!);
  if (result.ok) return redirectWithToast("/admin/user", success("User deleted."));
  if (result.code === "not_found") throw notFound();
  return redirectWithToast(here, oops(result.message));
}

export default function UserDetailPage() {
  const { user, canEdit, canDelete } = useLoaderData<typeof loader>();
  const rows: [string, string][] = [
    ["Full name", user.name],
    ["Role", user.role.title],
    ["Branch", user.branch?.title ?? "Head Office"],
    ["Email", user.email],
    ["Phone", user.phone ?? ""],
    ["Sex", SEX_LABELS[user.sex]],
    ["Address", user.address ?? ""],
  ];
  return (
    <>
      <h1>User</h1>
      <DetailList rows={rows.map(([k, v]): DetailRow => [k, v || "—"])} />
      <div className="actions">
        <Link to="/admin/user" className="button">
          Close
        </Link>
        {canEdit ? (
          <Link to={`/admin/user/${user.slug}/edit`} className="button primary">
            Edit
          </Link>
        ) : null}
        {canDelete ? <DeleteForm /> : null}
      </div>
    </>
  );
}
