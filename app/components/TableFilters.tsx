/**
 * Filter inputs for a DataTable's GET form: they keep the value of the current
 * query string, and show the first error of a filter that could not be read
 * (the list answers "?from=abc" with the message under From, not an error page).
 */
import { useSearchParams } from "@remix-run/react";
import { DayInput } from "./DayInput";
import type { Errors } from "./Field";

/** The message under a filter: a span, as a label may only hold phrasing content. */
function FilterError({ id, errors }: { id: string; errors?: Errors }) {
  const first = errors?.[0];
  if (!first) return null;
  return (
    <span className="field-error" id={id} role="alert">
      {first}
    </span>
  );
}

const invalidProps = (name: string, errors?: Errors) =>
  errors?.length ? { "aria-invalid": true, "aria-describedby": `filter-${name}-error` } : {};

export function FilterSelect({
  name,
  label,
  options,
  errors,
}: {
  name: string;
  label: string;
  options: { value: string | number; label: string }[];
  errors?: Errors;
}) {
  const [params] = useSearchParams();
  return (
    <label className={errors?.length ? "invalid" : undefined}>
      <span>{label}</span>
      <select name={name} defaultValue={params.get(name) ?? ""} {...invalidProps(name, errors)}>
        <option value="">All</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FilterError id={`filter-${name}-error`} errors={errors} />
    </label>
  );
}

/**
 * A date filter: a day typed as yyyy/MM/dd (`DayInput`), or `type="datetime-local"`
 * with an hour step for the test-ride list's pickers.
 */
export function FilterDate({
  name,
  label,
  errors,
  type = "date",
  step,
}: {
  name: string;
  label: string;
  errors?: Errors;
  type?: "date" | "datetime-local";
  step?: number;
}) {
  const [params] = useSearchParams();
  const value = params.get(name) ?? "";
  // Named by its label's text alone: the message in the label is its description.
  const labelId = `filter-${name}-label`;
  return (
    <label className={errors?.length ? "invalid" : undefined}>
      <span id={labelId}>{label}</span>
      {type === "date" ? (
        <DayInput name={name} defaultValue={value} aria-labelledby={labelId} {...invalidProps(name, errors)} />
      ) : (
        <input
          type={type}
          name={name}
          step={step}
          defaultValue={value}
          aria-labelledby={labelId}
          {...invalidProps(name, errors)}
        />
      )}
      <FilterError id={`filter-${name}-error`} errors={errors} />
    </label>
  );
}

/**
 * The errors of a list's query that no visible filter shows (paging numbers,
 * a hand-made URL), above the table.
 */
export function FilterErrors({
  errors,
  shown,
}: {
  errors?: Record<string, string[]> | null;
  shown: readonly string[];
}) {
  const rest = Object.entries(errors ?? {}).filter(([k, v]) => !shown.includes(k) && v?.length);
  if (!rest.length) return null;
  return (
    <p className="form-error" role="alert">
      {rest.map(([, v]) => v[0]).join(" ")}
    </p>
  );
}
