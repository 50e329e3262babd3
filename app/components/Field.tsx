/** Form field pieces: a label, an input, and the first server error under it. */
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";

export type Errors = string[] | undefined | null;

export function FieldError({ id, errors }: { id?: string; errors: Errors }) {
  const first = errors?.[0];
  if (!first) return null;
  return (
    <p className="field-error" id={id} role="alert">
      {first}
    </p>
  );
}

type Common = { label: ReactNode; name: string; errors?: Errors; required?: boolean; hint?: ReactNode };

function Label({ label, name, required }: { label: ReactNode; name: string; required?: boolean }) {
  return (
    <label htmlFor={`f-${name}`}>
      {label}
      {required ? <span className="req"> *</span> : null}
    </label>
  );
}

export function Field({
  label,
  name,
  errors,
  required,
  hint,
  ...input
}: Common & InputHTMLAttributes<HTMLInputElement>) {
  const invalid = Boolean(errors?.length);
  return (
    <div className={`field${invalid ? " invalid" : ""}`}>
      <Label label={label} name={name} required={required} />
      <input
        id={`f-${name}`}
        name={name}
        required={required}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `e-${name}` : undefined}
        {...input}
      />
      {hint ? <small>{hint}</small> : null}
      <FieldError id={`e-${name}`} errors={errors} />
    </div>
  );
}

export function SelectField({
  label,
  name,
  errors,
  required,
  hint,
  options,
  placeholder,
  ...select
}: Common &
  SelectHTMLAttributes<HTMLSelectElement> & {
    options: { value: string | number; label: string }[];
    placeholder?: string;
  }) {
  const invalid = Boolean(errors?.length);
  return (
    <div className={`field${invalid ? " invalid" : ""}`}>
      <Label label={label} name={name} required={required} />
      <select id={`f-${name}`} name={name} required={required} aria-invalid={invalid || undefined} {...select}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {hint ? <small>{hint}</small> : null}
      <FieldError id={`e-${name}`} errors={errors} />
    </div>
  );
}

export function TextareaField({
  label,
  name,
  errors,
  required,
  ...area
}: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const invalid = Boolean(errors?.length);
  return (
    <div className={`field${invalid ? " invalid" : ""}`}>
      <Label label={label} name={name} required={required} />
      <textarea id={`f-${name}`} name={name} required={required} aria-invalid={invalid || undefined} {...area} />
      <FieldError id={`e-${name}`} errors={errors} />
    </div>
  );
}
