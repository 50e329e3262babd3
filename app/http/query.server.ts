/**
 * A list's query string (filters) parsed with its zod schema. A list never
 * fails on a bad filter: the page shows the list without the filters that did
 * not parse and a message at each of them; the API answers 422 with the same
 * messages (`apiQuery`).
 */
import type { z } from "zod";
import { fail, type FieldErrors } from "~/utils/failure";
import { foldHours } from "~/schemas/primitives";
import { issuesToErrors } from "./body.server";
import { apiFailure } from "./http.server";

function plain(params: URLSearchParams, extra: Record<string, string | null | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  params.forEach((v, k) => {
    if (!k.includes("[")) out[k] = v;
  });
  for (const [k, v] of Object.entries(extra)) {
    if (v === null || v === undefined) delete out[k];
    else out[k] = v;
  }
  return foldHours(out);
}

/**
 * The filters that parse, and a message for each that does not. `extra`
 * overrides query values before parsing (a list's search term read from
 * DataTables' `search[value]`, say).
 */
export function parseQuery<S extends z.ZodType>(
  params: URLSearchParams,
  schema: S,
  extra: Record<string, string | null | undefined> = {},
): { value: z.output<S>; errors: FieldErrors } {
  const input = plain(params, extra);
  const first = schema.safeParse(input);
  if (first.success) return { value: first.data, errors: {} };
  const errors = issuesToErrors(first.error.issues);
  for (const key of Object.keys(errors)) delete input[key.split(".")[0]];
  const second = schema.safeParse(input);
  if (!second.success) throw new Error(`parseQuery: filters still invalid without ${Object.keys(errors).join(", ")}`);
  return { value: second.data, errors };
}

/** The API's filters: the value, or the 422 answer thrown. */
export function apiQuery<S extends z.ZodType>(
  params: URLSearchParams,
  schema: S,
  extra: Record<string, string | null | undefined> = {},
): z.output<S> {
  const { value, errors } = parseQuery(params, schema, extra);
  if (Object.keys(errors).length) throw apiFailure(fail.invalid(errors));
  return value;
}
