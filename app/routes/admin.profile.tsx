import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { FieldError, FormError } from "~/components/Field";
import { useStaff } from "~/components/Guard";
import { failureStatus } from "~/utils/failure";
import { changePassword } from "~/models/user.server";
import { readForm } from "~/http/body.server";
import { retryHeaders } from "~/http/http.server";
import { currentSessionHash } from "~/http/session.server";
import { changePasswordSchema } from "~/schemas/auth";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { redirectWithToast, success } from "~/http/toast.server";
import { DetailList } from "~/components/DetailList";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: null } satisfies RouteAccess;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess(request, handle);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const submission = parseWithZod(await readForm(request), { schema: changePasswordSchema });
  const hideFields = ["current_password", "password", "password_confirmation"];
  if (submission.status !== "success") return Response.json(submission.reply({ hideFields }), { status: 422 });
  const { current_password: current, password: next } = submission.value;
  const result = await changePassword(user, { current, next }, await currentSessionHash(request));
  if (!result.ok) {
    const { form: formErrors, ...fieldErrors } = result.errors;
    return Response.json(submission.reply({ fieldErrors, formErrors, hideFields }), {
      status: failureStatus(result),
      headers: retryHeaders(result),
    });
  }
  return redirectWithToast(
    "/admin/profile",
    success("Your password has been changed. Your other sessions have been signed out."),
  );
}

export default function Profile() {
  const staff = useStaff() as unknown as {
    name: string;
    email: string;
    phone: string | null;
    role: { title: string };
    branch: { title: string } | null;
  };
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm<{ current_password: string; password: string; password_confirmation: string }>({
    lastResult: lastResult as never,
  });
  const rows: [string, string][] = [
    ["Name", staff.name],
    ["Email", staff.email],
    ["Phone", staff.phone ?? ""],
    ["Role", staff.role.title],
    ["Branch", staff.branch?.title ?? "Head Office (all branches)"],
  ];
  return (
    <>
      <h1>Profile</h1>
      <DetailList rows={rows} />
      <Form method="post" className="card" style={{ maxWidth: 420, marginTop: "1rem" }} {...getFormProps(form)}>
        <h2>Change password</h2>
        <FormError errors={form.errors} />
        {(
          [
            ["current_password", "Current password", "current-password"],
            ["password", "New password", "new-password"],
            ["password_confirmation", "Confirm new password", "new-password"],
          ] as const
        ).map(([name, label, auto]) => (
          <div className="field" key={name}>
            <label htmlFor={fields[name].id}>{label}</label>
            <input {...getInputProps(fields[name], { type: "password" })} autoComplete={auto} key={fields[name].key} />
            <FieldError errors={fields[name].errors} />
          </div>
        ))}
        <button type="submit" className="primary">
          Change password
        </button>
      </Form>
    </>
  );
}
