/**
 * The dealer user form (spec 001 §2.6): branch, first name, last name, email,
 * phone, sex, address, role, password, confirm password. A plain post: the
 * server validates and sends the first error of each field back under it
 * (spec 001 §5); the typed values come back too, never the passwords.
 */
import { useForm, type SubmissionResult } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { useEffect } from "react";
import { Field, SelectField, TextareaField } from "~/components/Field";
import { ConformForm } from "~/components/ConformForm";
import { SEX_LABELS, SEXES } from "~/schemas/user";
import { SaveCancel } from "~/components/FormActions";
import { titledOptions } from "~/utils/options";

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
  return (
    <ConformForm form={form} className="card user-form">
      <div className="grid">
        <SelectField
          label="Branch"
          meta={fields.branch_id}
          placeholder={options.headOffice ? "Head Office (no branch)" : undefined}
          options={titledOptions(options.branches)}
        />
        <SelectField
          label="Role"
          required
          meta={fields.role_id}
          placeholder="Choose a role"
          options={titledOptions(options.roles)}
        />
        <Field meta={fields.first_name} label="First name" required autoComplete="off" />
        <Field meta={fields.last_name} label="Last name" autoComplete="off" />
        <Field meta={fields.email} label="Email" type="email" required autoComplete="off" />
        <Field meta={fields.phone} label="Phone" type="tel" inputMode="tel" required autoComplete="off" />
        <SelectField label="Sex" meta={fields.sex} options={SEXES.map((s) => ({ value: s, label: SEX_LABELS[s] }))} />
      </div>
      <TextareaField meta={fields.address} label="Address" rows={2} />
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
            errors={fields.password.errors}
            hint={mode === "edit" ? "Leave empty to keep the current password." : "At least 8 characters."}
          />
          <Field
            label="Confirm password"
            name="password_confirmation"
            type="password"
            autoComplete="new-password"
            required={mode === "create"}
            errors={fields.password_confirmation.errors}
          />
        </div>
      )}
      <SaveCancel cancelTo={cancelTo} />
    </ConformForm>
  );
}
