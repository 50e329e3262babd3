import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { userLinks } from "~/components/user/styles";
import { EMPTY_USER, UserForm } from "~/components/user/UserForm";
import { addUser, userFormOptions } from "~/models/dealer-user.server";
import { PASSWORD_FIELDS, userCreateSchema } from "~/schemas/user";
import { parseForm, replyFailure } from "~/http/http.server";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { readForm } from "~/http/body.server";
import { redirectWithToast, success } from "~/http/toast.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "create-user" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Create User" }];
export const links = userLinks;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const options = userFormOptions(user);
  // A branch user's users are always of its branch: the one choice is made for it.
  const branch_id = options.headOffice ? "" : String(options.branches[0]?.id ?? "");
  return { options, defaults: { ...EMPTY_USER, branch_id } };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const form = await readForm(request);
  const parsed = parseForm(form, userCreateSchema, { hide: PASSWORD_FIELDS });
  if (!parsed.ok) return parsed.reply;
  const result = await addUser(user, parsed.value);
  if (!result.ok) return replyFailure(form, result, { hide: PASSWORD_FIELDS });
  return redirectWithToast(`/admin/user/${result.user.slug}`, success("User created."));
}

export default function CreateUser() {
  const { options, defaults } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <h1>Create User</h1>
      <UserForm
        id="user-create"
        mode="create"
        options={options}
        defaults={defaults}
        lastResult={actionData?.result}
        cancelTo="/admin/user"
      />
    </>
  );
}
