/**
 * Field pieces with an id prefix, for forms that can be shown in a dialog on
 * top of another form (the booking form over the landing page): same markup
 * and classes as ~/components/Field, unique ids.
 */
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from "react";
import { FieldError } from "~/components/Field";

type Common = { id: string; label: ReactNode; name: string; errors?: string[]; required?: boolean };

function Label({ id, label, required }: { id: string; label: ReactNode; required?: boolean }) {
  return (
    <label htmlFor={id}>
      {label}
      {required ? <span className="req"> *</span> : null}
    </label>
  );
}

export function PInput({
  id,
  label,
  name,
  errors,
  required,
  ...input
}: Common & InputHTMLAttributes<HTMLInputElement>) {
  const invalid = Boolean(errors?.length);
  return (
    <div className={`field${invalid ? " invalid" : ""}`}>
      <Label id={id} label={label} required={required} />
      <input
        id={id}
        name={name}
        required={required}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${id}-error` : undefined}
        {...input}
      />
      <FieldError id={`${id}-error`} errors={errors} />
    </div>
  );
}

export function PSelect({
  id,
  label,
  name,
  errors,
  required,
  options,
  placeholder,
  ...select
}: Common &
  SelectHTMLAttributes<HTMLSelectElement> & {
    options: { value: string | number; label: string }[];
    placeholder: string;
  }) {
  const invalid = Boolean(errors?.length);
  return (
    <div className={`field${invalid ? " invalid" : ""}`}>
      <Label id={id} label={label} required={required} />
      <select
        id={id}
        name={name}
        required={required}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${id}-error` : undefined}
        {...select}
      >
        <option value="">{placeholder}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError id={`${id}-error`} errors={errors} />
    </div>
  );
}
