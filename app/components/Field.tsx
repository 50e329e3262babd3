/**
 * The form field pieces of every form, public and back office: a label (with
 * its star when required), the control, an optional hint, and the first
 * server error under it. The id is the one given (conform's getInputProps
 * gives one) or a useId() one, so two forms on one page never share ids; the
 * error's id is `${id}-error`, which is conform's errorId too.
 */
import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";

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

/** The first error of the whole form (not of one field), at its top. */
export function FormError({ errors }: { errors: Errors }) {
  const first = errors?.[0];
  if (!first) return null;
  return (
    <p className="form-error" role="alert">
      {first}
    </p>
  );
}

type Common = {
  label: ReactNode;
  name: string;
  errors?: Errors;
  required?: boolean;
  /** The star without the required attribute (a field required only in some states, shown by CSS). */
  star?: boolean;
  hint?: ReactNode;
  id?: string;
};

function useFieldId(id: string | undefined): string {
  const generated = useId();
  return id ?? `f${generated.replace(/:/g, "")}`;
}

function Frame({
  id,
  label,
  required,
  errors,
  hint,
  children,
}: {
  id: string;
  label: ReactNode;
  required?: boolean;
  errors?: Errors;
  hint?: ReactNode;
  children: ReactNode;
}) {
  const invalid = Boolean(errors?.length);
  return (
    <div className={`field${invalid ? " invalid" : ""}`}>
      <label htmlFor={id}>
        {label}
        {required ? (
          <span className="req" aria-hidden="true">
            {" "}
            *
          </span>
        ) : null}
      </label>
      {children}
      {hint ? <small id={`${id}-hint`}>{hint}</small> : null}
      <FieldError id={`${id}-error`} errors={errors} />
    </div>
  );
}

/** The aria attributes of a control in a Frame. */
function described(id: string, errors: Errors, hint: ReactNode) {
  const invalid = Boolean(errors?.length);
  const ids = [invalid ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ");
  return { "aria-invalid": invalid || undefined, "aria-describedby": ids || undefined };
}

export function Field({
  label,
  name,
  errors,
  required,
  star,
  hint,
  id,
  ...input
}: Common & InputHTMLAttributes<HTMLInputElement>) {
  const fieldId = useFieldId(id);
  return (
    <Frame id={fieldId} label={label} required={required || star} errors={errors} hint={hint}>
      <input id={fieldId} name={name} required={required} {...described(fieldId, errors, hint)} {...input} />
    </Frame>
  );
}

export function SelectField({
  label,
  name,
  errors,
  required,
  hint,
  id,
  options,
  placeholder,
  ...select
}: Common &
  SelectHTMLAttributes<HTMLSelectElement> & {
    options: readonly { value: string | number; label: string }[];
    placeholder?: string;
  }) {
  const fieldId = useFieldId(id);
  return (
    <Frame id={fieldId} label={label} required={required} errors={errors} hint={hint}>
      <select id={fieldId} name={name} required={required} {...described(fieldId, errors, hint)} {...select}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}

export function TextareaField({
  label,
  name,
  errors,
  required,
  hint,
  id,
  ...area
}: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const fieldId = useFieldId(id);
  return (
    <Frame id={fieldId} label={label} required={required} errors={errors} hint={hint}>
      <textarea id={fieldId} name={name} required={required} {...described(fieldId, errors, hint)} {...area} />
    </Frame>
  );
}
