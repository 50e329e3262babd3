/**
 * The form field pieces of every form, public and back office: a label (with
 * its star when required), the control, an optional hint, and the first
 * server error under it. The id is the one given (conform's getInputProps
 * gives one) or a useId() one, so two forms on one page never share ids; the
 * error's id is `${id}-error`, which is conform's errorId too. Given a
 * conform field (`meta`), a control takes its name, initial value and errors
 * from it, and its key, so a form reset shows the new value.
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

/** What a control reads of a conform field (`fields.title`). */
export type FieldMeta = { name: string; key?: string; initialValue?: unknown; errors?: string[] };

/** A conform value as the text a control shows (the last of a repeated one). */
export const textOf = (v: unknown): string | undefined =>
  v === undefined || v === null ? undefined : Array.isArray(v) ? textOf(v[v.length - 1]) : String(v);

/** The control's name, key, initial value and errors: given, or read from its conform field. */
function fromMeta(meta: FieldMeta | undefined, name: string | undefined, errors: Errors, defaultValue: unknown) {
  return {
    name: name ?? meta?.name,
    key: meta?.key,
    errors: errors ?? meta?.errors,
    defaultValue: (defaultValue ?? (meta ? (textOf(meta.initialValue) ?? "") : undefined)) as string | undefined,
  };
}

type Common = {
  label: ReactNode;
  /** The control's name, unless `meta` gives it. */
  name?: string;
  /** The conform field the control shows. */
  meta?: FieldMeta;
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

/**
 * A control's pieces from its props: the key (a conform reset remounts it),
 * the Frame's props, the control's own (id, name, value, required, aria) and
 * the rest, which go on the control as they are.
 */
function useControl<P extends Common & { defaultValue?: unknown }>(props: P) {
  const { label, name, meta, errors, required, star, hint, id, defaultValue, ...rest } = props;
  const fieldId = useFieldId(id);
  const { key, ...own } = fromMeta(meta, name, errors, defaultValue);
  return {
    key,
    frame: { id: fieldId, label, required: required || star, errors: own.errors, hint },
    control: {
      id: fieldId,
      name: own.name,
      defaultValue: own.defaultValue,
      required,
      ...described(fieldId, own.errors, hint),
    },
    rest,
  };
}

export function Field(props: Common & Omit<InputHTMLAttributes<HTMLInputElement>, "name">) {
  const { key, frame, control, rest } = useControl(props);
  return (
    <Frame {...frame}>
      <input key={key} {...control} {...rest} />
    </Frame>
  );
}

/** A whole number from `min` to `max`: a number input stepping by one, with the digits keypad on phones. */
export function WholeNumberField(
  props: Common & Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "type" | "step" | "inputMode">,
) {
  return <Field {...props} type="number" step={1} inputMode="numeric" />;
}

export function SelectField(
  props: Common &
    Omit<SelectHTMLAttributes<HTMLSelectElement>, "name"> & {
      /** The choices; those with a `group` are shown under its heading (an optgroup), in the order given. */
      options: readonly { value: string | number; label: string; group?: string }[];
      placeholder?: string;
    },
) {
  const {
    key,
    frame,
    control,
    rest: { options, placeholder, ...select },
  } = useControl(props);
  const option = (o: (typeof options)[number]) => (
    <option key={o.value} value={o.value}>
      {o.label}
    </option>
  );
  const groups = [...new Set(options.map((o) => o.group))];
  return (
    <Frame {...frame}>
      <select key={key} {...control} {...select}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {groups.map((g) =>
          g === undefined ? (
            options.filter((o) => o.group === undefined).map(option)
          ) : (
            <optgroup key={g} label={g}>
              {options.filter((o) => o.group === g).map(option)}
            </optgroup>
          ),
        )}
      </select>
    </Frame>
  );
}

export function TextareaField(props: Common & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "name">) {
  const { key, frame, control, rest } = useControl(props);
  return (
    <Frame {...frame}>
      <textarea key={key} {...control} {...rest} />
    </Frame>
  );
}
