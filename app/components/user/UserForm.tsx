/**
 * The dealer user form (spec 001 §2.6): branch, first name, last name, email,
 * phone, sex, address, role, password, confirm password. A plain post: the
 * server validates and sends the first error of each field back under it
 * (spec 001 §5); the typed values come back too, never the passwords.
 */
import { useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useEffect } from "react";
import { Field, FormError, SelectField, TextareaField } from "~/components/Field";
import { SEX_LABELS, SEXES } from "~/schemas/user";
import { SaveCancel } from "~/components/FormActions";

export type UserFormOptions = {
  headOffice: boolean;
  branches: { id: number; title: string }[];
  roles: { id: number; title: string }[];
};

export type UserFormValues = {
  branch_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  sex: string;
  address: string;
  role_id: string;
};

export const EMPTY_USER: UserFormValues = {
  branch_id: "",
  first_name: "",
  last_name: "",
  email: "",
  phone: "",
  sex: "MALE",
  address: "",
  role_id: "",
};

const str = (v: unknown) => (v === undefined || v === null ? undefined : String(v));

export function UserForm({
  id,
  mode,
  options,
  defaults,
  lastResult,
  cancelTo,
}: {
  id: string;
  /** "edit-self": one's own account, whose password is changed on the Profile page. */
  mode: "create" | "edit" | "edit-self";
  options: UserFormOptions;
  defaults: UserFormValues;
  lastResult?: SubmissionResult<string[]> | null;
  cancelTo: string;
}) {
  // No rules in the browser: the server answers every submit (spec 001 §5).
  const [form, fields] = useForm<UserFormValues & { password: string; password_confirmation: string }>({
    id,
    lastResult: lastResult ?? undefined,
    defaultValue: defaults,
    shouldValidate: "onSubmit",
  });
  // The passwords are never sent back: after each answer they are empty again (with JavaScript the
  // inputs would otherwise keep what was typed).
  useEffect(() => {
    const element = document.getElementById(id);
    element?.querySelectorAll<HTMLInputElement>("input[type=password]").forEach((input) => (input.value = ""));
  }, [id, lastResult]);
  const f = fields as unknown as Record<string, { key?: string; initialValue?: unknown; errors?: string[] }>;
  const common = (name: keyof typeof fields) => ({
    name,
    defaultValue: str(f[name].initialValue) ?? "",
    errors: f[name].errors,
  });
  return (
    <Form method="post" id={form.id} onSubmit={form.onSubmit} noValidate className="card user-form">
      <FormError errors={form.errors} />
      <div className="grid">
        <SelectField
          label="Branch"
          key={f.branch_id.key}
          {...common("branch_id")}
          placeholder={options.headOffice ? "Head Office (no branch)" : undefined}
          options={options.branches.map((b) => ({ value: b.id, label: b.title }))}
        />
        <SelectField
          label="Role"
          required
          key={f.role_id.key}
          {...common("role_id")}
          placeholder="Choose a role"
          options={options.roles.map((r) => ({ value: r.id, label: r.title }))}
        />
        <Field label="First name" required autoComplete="off" key={f.first_name.key} {...common("first_name")} />
        <Field label="Last name" autoComplete="off" key={f.last_name.key} {...common("last_name")} />
        <Field label="Email" type="email" required autoComplete="off" key={f.email.key} {...common("email")} />
        <Field
          label="Phone"
          type="tel"
          inputMode="tel"
          required
          autoComplete="off"
          key={f.phone.key}
          {...common("phone")}
        />
        <SelectField
          label="Sex"
          key={f.sex.key}
          {...common("sex")}
          options={SEXES.map((s) => ({ value: s, label: SEX_LABELS[s] }))}
        />
      </div>
      <TextareaField label="Address" rows={2} key={f.address.key} {...common("address")} />
      {mode === "edit-self" ? (
        <p className="muted">
          To change your own password, use your <Link to="/admin/profile">Profile</Link> page.
        </p>
      ) : (
        <div className="grid">
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete="new-password"
            required={mode === "create"}
            errors={f.password.errors}
            hint={mode === "edit" ? "Leave empty to keep the current password." : "At least 8 characters."}
          />
          <Field
            label="Confirm password"
            name="password_confirmation"
            type="password"
            autoComplete="new-password"
            required={mode === "create"}
            errors={f.password_confirmation.errors}
          />
        </div>
      )}
      <SaveCancel cancelTo={cancelTo} />
    </Form>
  );
}
