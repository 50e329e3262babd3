/**
 * A day as staff type it: a text input in the display format, yyyy/MM/dd,
 * whatever the browser's locale (a native date input shows the locale's
 * mm/dd/yyyy). The server reads yyyy/MM/dd, and yyyy-MM-dd of old links and
 * API clients (`readDay` in app/schemas/primitives.ts); a day that does not
 * read is its message under the field. A plain input: it posts without
 * JavaScript.
 */
import type { InputHTMLAttributes } from "react";
import { Field, textOf } from "./Field";

/** The typed form of a day: the display format, yyyy/MM/dd (a dash is read too). */
export const DATE_PLACEHOLDER = "yyyy/mm/dd";
export const DATE_PATTERN = "\\d{4}[\\/\\-]\\d{1,2}[\\/\\-]\\d{1,2}";

/** A day as it is shown in its input: "2026-11-21" (a stored day, an old link) as "2026/11/21". */
export const typedDay = (value: string | null | undefined): string => (value ?? "").replaceAll("-", "/");

/** The attributes of every day input. */
export const DAY_INPUT = {
  type: "text",
  inputMode: "numeric",
  placeholder: DATE_PLACEHOLDER,
  pattern: DATE_PATTERN,
  title: `A date as ${DATE_PLACEHOLDER}`,
  autoComplete: "off",
  size: 11,
} as const satisfies InputHTMLAttributes<HTMLInputElement>;

type DayProps = Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "value" | "defaultValue"> & {
  name: string;
  /** The day, as stored (yyyy-MM-dd) or as typed. */
  defaultValue?: string | null;
};

/** The bare input, for a label and message laid out by its form. */
export function DayInput({ defaultValue, ...input }: DayProps) {
  return <input {...DAY_INPUT} defaultValue={typedDay(defaultValue)} {...input} />;
}

/** The input in a form field (label, hint, the message under it). */
export function DayField({
  defaultValue,
  ...field
}: Omit<Parameters<typeof Field>[0], "type" | "value" | "defaultValue"> & { defaultValue?: string | null }) {
  const day = defaultValue ?? textOf(field.meta?.initialValue);
  return <Field {...DAY_INPUT} defaultValue={typedDay(day)} {...field} />;
}
