/**
 * Filter inputs for a DataTable's GET form: they keep the value of the current
 * query string, and show the first error of a filter that could not be read
 * (the list answers "?from=abc" with the message under From, not an error page).
 */
import { useSearchParams } from "@remix-run/react";
import { FILTER_HOURS, hourField } from "~/schemas/primitives";
import { titledOptions } from "~/utils/options";
import { DayInput } from "./DayInput";
import type { Errors } from "./Field";

/**
 * The list's filters as a query string for its Download and Print links, so a download gives exactly
 * the rows on screen: each of `keys` that is set, and the hour beside From and To (`from_hour`). A
 * filter the page refused (`refused`, its errors) is left out, as the rows on screen are without it;
 * the download would refuse it (422).
 */
export function useFilterQuery(keys: readonly string[], refused: Record<string, unknown> | null = null): string {
  const [params] = useSearchParams();
  const q = new URLSearchParams();
  const kept = keys.filter((k) => !refused?.[k]);
  for (const k of kept.flatMap((k) => (k === "from" || k === "to" ? [k, hourField(k)] : [k]))) {
    const v = params.get(k);
    if (v) q.set(k, v);
  }
  return q.toString();
}

/** The message under a filter: a span, as a label may only hold phrasing content. */
export function FilterError({ id, errors }: { id: string; errors?: Errors }) {
  const first = errors?.[0];
  if (!first) return null;
  return (
    <span className="field-error" id={id} role="alert">
      {first}
    </span>
  );
}

export const invalidProps = (name: string, errors?: Errors) =>
  errors?.length ? { "aria-invalid": true, "aria-describedby": `filter-${name}-error` } : {};

export function FilterSelect({
  name,
  label,
  options,
  errors,
  all = "All",
}: {
  name: string;
  label: string;
  options: { value: string | number; label: string }[];
  errors?: Errors;
  /** The first option's text: no filter on this field. */
  all?: string;
}) {
  const [params] = useSearchParams();
  return (
    <label className={errors?.length ? "invalid" : undefined}>
      <span>{label}</span>
      {/* Named by its label alone: a wrapping label would add the chosen option's text. */}
      <select name={name} aria-label={label} defaultValue={params.get(name) ?? ""} {...invalidProps(name, errors)}>
        <option value="">{all}</option>
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

/** The lists' branch filter: every branch by its title, "All branches" when none is chosen. */
export function BranchFilter({
  branches,
  errors,
}: {
  branches: readonly { id: number; title: string }[];
  errors?: Errors;
}) {
  return (
    <FilterSelect name="branch" label="Branch" all="All branches" options={titledOptions(branches)} errors={errors} />
  );
}

/**
 * A date filter: a day typed as yyyy/MM/dd (`DayInput`, the Bikram Sambat date beside it where the
 * page shows one) and, for From and To, an hour (`from_hour`, 00–23; none for the whole day) that the
 * server folds into the value (`foldHours`, app/schemas/primitives.ts). From starts at its hour, To
 * runs through its hour's end (shown as 13:59). Plain inputs: they post without JavaScript.
 */
/** The hour selects' names: they must not contain "From" or "To", the days' own labels. */
const HOUR_LABELS: Record<string, string> = { from: "Start hour", to: "End hour" };

export function FilterDate({
  name,
  label,
  errors,
  withHour = name === "from" || name === "to",
}: {
  name: string;
  label: string;
  errors?: Errors;
  /** Offer an hour beside the day (From and To do; a pool's date does not). */
  withHour?: boolean;
}) {
  const [params] = useSearchParams();
  const value = params.get(name) ?? "";
  // Named by its label's text alone: the message in the label is its description.
  const labelId = `filter-${name}-label`;
  const hour = hourField(name);
  const minutes = name === "to" ? "59" : "00";
  return (
    <div className={`filter-date${errors?.length ? " invalid" : ""}`}>
      <span id={labelId}>{label}</span>
      <span className="filter-date-inputs">
        <DayInput name={name} defaultValue={value} aria-labelledby={labelId} {...invalidProps(name, errors)} />
        {withHour ? (
          <select name={hour} defaultValue={params.get(hour) ?? ""} aria-label={HOUR_LABELS[name] ?? "Hour"}>
            <option value="">All day</option>
            {FILTER_HOURS.map((h) => (
              <option key={h} value={h}>
                {h}:{minutes}
              </option>
            ))}
          </select>
        ) : null}
      </span>
      <FilterError id={`filter-${name}-error`} errors={errors} />
    </div>
  );
}

/** A list's From and To (a Kathmandu day, with an hour), each with its message. */
export function FilterRange({ errors }: { errors?: { from?: Errors; to?: Errors } | null }) {
  return (
    <>
      <FilterDate name="from" label="From" errors={errors?.from} />
      <FilterDate name="to" label="To" errors={errors?.to} />
    </>
  );
}

/** A list's download: the file of the rows the page's filters choose (`href`), under its name (else the server's). */
export function DownloadLink({ href, file }: { href: string; file?: string }) {
  return (
    <a className="button" href={href} download={file ?? true}>
      Download
    </a>
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
