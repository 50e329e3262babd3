/**
 * A From/To filter of the referrer report: the date written yyyy/MM/dd (as
 * the report shows dates), typed or, with JavaScript, picked from the
 * browser's calendar beside it. Without JavaScript it is a text field the
 * server reads (yyyy/MM/dd or yyyy-MM-dd) and answers with a message when the
 * date does not read.
 */
import { useSearchParams } from "@remix-run/react";
import { useRef } from "react";
import type { Errors } from "~/components/Field";
import { useHydrated } from "~/components/useHydrated";

const asSlashes = (v: string) => v.replace(/^(\d{4})-(\d{2})-(\d{2})$/, "$1/$2/$3");
const asDashes = (v: string) => v.replace(/^(\d{4})\/(\d{2})\/(\d{2})$/, "$1-$2-$3");

export function ReportDateFilter({ name, label, errors }: { name: string; label: string; errors?: Errors }) {
  const [params] = useSearchParams();
  const hydrated = useHydrated();
  const text = useRef<HTMLInputElement>(null);
  const value = asSlashes(params.get(name) ?? "");
  const errorId = `filter-${name}-error`;
  const labelId = `filter-${name}-label`;
  const invalid = errors?.length ? { "aria-invalid": true as const, "aria-describedby": errorId } : {};
  return (
    <label className={`report-date${errors?.length ? " invalid" : ""}`}>
      <span id={labelId}>{label}</span>
      <span className="report-date-inputs">
        <input
          ref={text}
          type="text"
          name={name}
          aria-labelledby={labelId}
          defaultValue={value}
          placeholder="yyyy/MM/dd"
          inputMode="numeric"
          autoComplete="off"
          size={10}
          {...invalid}
        />
        {hydrated ? (
          <input
            type="date"
            aria-label={`Pick the ${label} date`}
            defaultValue={asDashes(value)}
            onChange={(e) => {
              if (text.current) text.current.value = asSlashes(e.currentTarget.value);
            }}
          />
        ) : null}
      </span>
      {errors?.[0] ? (
        <span className="field-error" id={errorId} role="alert">
          {errors[0]}
        </span>
      ) : null}
    </label>
  );
}
