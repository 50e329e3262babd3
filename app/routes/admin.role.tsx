import { getCollectionProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Fragment } from "react";
import { Field, FieldError, FormError } from "~/components/Field";
import { userLinks } from "~/components/user/styles";
import type { FieldErrors } from "~/utils/failure";
import { createRole, listRoleMatrix, saveRoleMatrix } from "~/models/role.server";
import { roleCreateSchema, roleMatrixFromForm } from "~/schemas/user";
import { requireIntent, requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseValue } from "~/http/body.server";
import { EVERY_PERMISSION, PERMISSION_LABELS, PERMISSION_PURPOSE, PERMISSIONS } from "~/utils/permissions";
import { failureStatus } from "~/utils/failure";
import { replyFailure } from "~/http/http.server";
import { oops, redirectWithToast, success } from "~/http/toast.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = {
  permission: EVERY_PERMISSION,
  intents: { matrix: null, create: null },
} as const satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Roles and Permissions" }];
export const links = userLinks;

/**
 * GET /admin/role (beyond the spec; holding every permission): the role ×
 * permission matrix, editable but for Super Admin, and a form for a new role.
 * A change applies to the role's users on their next request.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess(request, handle);
  return { roles: listRoleMatrix() };
}

/**
 * The matrix's refusal with the boxes sent (a plain form: one list of ticks per
 * role, shown again as sent); the new role's is conform's result.
 */
type ActionData =
  | { intent: "matrix"; errors: FieldErrors; matrix: Record<number, string[]> }
  | { intent: "create"; result: SubmissionResult<string[]> };

export async function action({ request }: ActionFunctionArgs) {
  const { intent, form, staff: user } = await requireIntent(request, handle);
  if (intent === "matrix") {
    const changes = roleMatrixFromForm(form);
    const result = saveRoleMatrix(user, changes);
    if (result.ok) {
      const saved = result.changed.length ? `Permissions saved: ${result.changed.join(", ")}.` : "Nothing changed.";
      return redirectWithToast("/admin/role", success(saved));
    }
    if (result.code === "not_found") return redirectWithToast("/admin/role", oops(result.message));
    const matrix = Object.fromEntries(changes.map((c) => [c.role_id, c.permissions]));
    return data<ActionData>({ intent, errors: result.errors, matrix }, { status: failureStatus(result) });
  }
  // intent === "create"
  const parsed = await parseValue({ kind: "form", form }, roleCreateSchema);
  const result = parsed.ok ? createRole(user, parsed.value) : parsed;
  if (result.ok) return redirectWithToast("/admin/role", success(`Role ${result.role.title} created.`));
  const reply = replyFailure(form, result);
  return data<ActionData>({ intent, result: reply.data.result }, reply.init ?? undefined);
}

export default function Roles() {
  const { roles } = useLoaderData<typeof loader>();
  const sent = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const matrixSent = sent?.intent === "matrix" ? sent : undefined;
  const matrixErrors = matrixSent?.errors ?? {};
  const ticked = (roleId: number, permission: string, held: readonly string[]) =>
    (matrixSent?.matrix[roleId] ?? held).includes(permission);
  return (
    <>
      <div className="user-head">
        <h1>Roles and Permissions</h1>
        <Link to="/admin/user">Users</Link>
      </div>
      <p className="muted">
        A change applies to the role&apos;s users on their next request. Super Admin keeps every permission. You can
        only give permissions you hold yourself.
      </p>
      <Form method="post" className="role-matrix" key={JSON.stringify(matrixSent?.matrix ?? roles)}>
        <FormError errors={matrixErrors.form} />
        <table aria-label="Permissions of each role">
          <thead>
            <tr>
              <th scope="col">Permission</th>
              {roles.map((r) => (
                <th scope="col" key={r.id} id={`role-${r.id}`}>
                  {r.title}
                  <span className="locked">
                    {r.users} user{r.users === 1 ? "" : "s"}
                    {r.locked ? " · locked" : ""}
                  </span>
                  <FieldError errors={matrixErrors[`role.${r.id}`]} />
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {PERMISSIONS.map((p) => (
              <tr key={p}>
                <th scope="row" title={`Lets the role ${PERMISSION_PURPOSE[p]}.`}>
                  {PERMISSION_LABELS[p]}
                </th>
                {roles.map((r) => (
                  <td key={r.id}>
                    <input
                      type="checkbox"
                      name={`role.${r.id}`}
                      value={p}
                      aria-label={`${r.title}: ${PERMISSION_LABELS[p]}`}
                      defaultChecked={r.locked || ticked(r.id, p, r.permissions)}
                      disabled={r.locked}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {roles
          .filter((r) => !r.locked)
          .map((r) => (
            <Fragment key={r.id}>
              <input type="hidden" name="roles" value={r.id} />
              {/* The role as this page shows it: a save leaves alone what it did not change. */}
              <input type="hidden" name={`loaded.${r.id}`} value={r.permissions.join(",")} />
            </Fragment>
          ))}
        <div className="actions">
          <button type="submit" name="intent" value="matrix" className="primary" disabled={busy}>
            Save permissions
          </button>
        </div>
      </Form>

      {/* A created role starts the form afresh. */}
      <NewRole key={roles.length} result={sent?.intent === "create" ? sent.result : undefined} busy={busy} />
    </>
  );
}

/** The new role: a title and the permissions it starts with, on conform (checked by the server). */
function NewRole({ result, busy }: { result?: SubmissionResult<string[]>; busy: boolean }) {
  const [form, fields] = useForm<{ title: string; permissions: string[] }>({ id: "role-new", lastResult: result });
  return (
    <Form method="post" className="card role-new" id={form.id} onSubmit={form.onSubmit}>
      <h2>New role</h2>
      <FormError errors={form.errors} />
      <Field label="Title" {...getInputProps(fields.title, { type: "text" })} required errors={fields.title.errors} />
      <fieldset className="perms">
        <legend>Permissions</legend>
        {getCollectionProps(fields.permissions, { type: "checkbox", options: [...PERMISSIONS] }).map(
          ({ key, ...box }) => (
            <label key={key}>
              <input {...box} />
              {PERMISSION_LABELS[box.value as (typeof PERMISSIONS)[number]]}
            </label>
          ),
        )}
      </fieldset>
      <FieldError errors={fields.permissions.errors} />
      <button type="submit" name="intent" value="create" disabled={busy}>
        Create role
      </button>
    </Form>
  );
}
