import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { userLinks } from "~/components/user/styles";
import { UserForm } from "~/components/user/UserForm";
import { findUser, holdsAll, updateUser, USER_ERRORS, userFormOptions } from "~/models/dealer-user.server";
import { PASSWORD_FIELDS, userUpdateSchema } from "~/schemas/user";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { readForm } from "~/http/body.server";
import { notFound, parseForm, replyFailure } from "~/http/http.server";
import { oops, redirectWithToast, success } from "~/http/toast.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "update-user" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Edit User" }];
export const links = userLinks;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const found = findUser(user.scope, params.slug!);
  if (!found) throw notFound();
  if (!holdsAll(user.permissions, found.permissions)) {
    throw await redirectWithToast(`/admin/user/${found.slug}`, oops(USER_ERRORS.targetNotHeld));
  }
  return {
    slug: found.slug,
    name: found.name,
    self: found.id === user.id,
    options: userFormOptions(user),
    defaults: {
      branch_id: found.branch_id === null ? "" : String(found.branch_id),
      first_name: found.first_name,
      last_name: found.last_name,
      email: found.email,
      phone: found.phone ?? "",
      sex: found.sex,
      address: found.address ?? "",
      role_id: String(found.role_id),
    },
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const slug = params.slug!;
  if (!findUser(user.scope, slug)) throw notFound();
  const form = await readForm(request);
  const parsed = parseForm(form, userUpdateSchema, { hide: PASSWORD_FIELDS });
  if (!parsed.ok) return parsed.reply;
  const result = await updateUser(user, slug, parsed.value);
  if (result.ok) {
    const ended = result.sessionsEnded ? " Their sessions and API tokens have been ended." : "";
    return redirectWithToast(`/admin/user/${slug}`, success(`User updated.${ended}`));
  }
  if (result.code === "not_found") throw notFound();
  if (result.code !== "invalid") return redirectWithToast(`/admin/user/${slug}`, oops(result.message));
  return replyFailure(form, result, { hide: PASSWORD_FIELDS });
}

export default function EditUser() {
  const { slug, name, self, options, defaults } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <h1>Edit User: {name}</h1>
      <UserForm
        id="user-edit"
        mode={self ? "edit-self" : "edit"}
        options={options}
        defaults={defaults}
        lastResult={actionData?.result}
        cancelTo={`/admin/user/${slug}`}
      />
    </>
  );
}
