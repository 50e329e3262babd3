/**
 * The two mappings of a model's Failure to HTTP, one for the API and one for
 * pages, both through `failureStatus`, so a failure answers the same status in
 * both. Also the small answers every route shares (not found, method not
 * allowed).
 */
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import type { z } from "zod";
import { failureStatus, type Failure } from "~/utils/failure";
import { oops, redirectWithToast } from "./toast.server";

/** Retry-After for a rate limit; Connection: close for a body too large to read to its end. */
export function retryHeaders(failure: Failure): HeadersInit | undefined {
  if (failure.code === "too_large") return { Connection: "close" };
  return failure.retryAfterSeconds ? { "Retry-After": String(failure.retryAfterSeconds) } : undefined;
}

/** The API's answer: `{message, errors}` with the failure's status (Retry-After when rate limited). */
export function apiFailure(failure: Failure): Response {
  const body = Object.keys(failure.errors).length
    ? { message: failure.message, errors: failure.errors }
    : { message: failure.message };
  return Response.json(body, { status: failureStatus(failure), headers: retryHeaders(failure) });
}

/**
 * A page's answer to a failure that is not about the form's fields (not found,
 * forbidden, too large): a Response to throw, shown by the error page in the
 * site's chrome with the failure's status.
 */
export function pageFailure(failure: Failure): Response {
  return new Response(failure.message, {
    status: failureStatus(failure),
    statusText: failure.message,
    headers: retryHeaders(failure),
  });
}

/** Fields never sent back to the browser in a reply (passwords). */
type Hidden = { hide?: readonly string[] };

/**
 * A form page's answer to a failure: conform's SubmissionResult with the field
 * errors (the first under each field, the rest of "form" above the form) and
 * the values sent, so the form shows again as typed, with the failure's status.
 * Pages read it as `actionData.result` and pass it to useForm's lastResult.
 */
export function replyFailure(form: FormData | null, failure: Failure, { hide = [] }: Hidden = {}) {
  const initialValue: Record<string, unknown> = {};
  form?.forEach((v, k) => {
    if (typeof v !== "string" || hide.includes(k)) return;
    const prev = initialValue[k];
    initialValue[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  });
  const result = submissionResult(initialValue, failure);
  return data({ result }, { status: failureStatus(failure), headers: retryHeaders(failure) });
}

/**
 * conform's SubmissionResult of a form shown again with `values`: the
 * failure's field errors (its "form" messages, or its message when it names
 * no field, above the form), or none.
 */
export function submissionResult(values: Record<string, unknown>, failure: Failure | null): SubmissionResult<string[]> {
  if (!failure) return { initialValue: values as never, error: {} };
  const error: Record<string, string[]> = { ...failure.errors };
  if (!Object.keys(error).length) error[""] = [failure.message];
  if (error.form) {
    error[""] = [...(error[""] ?? []), ...error.form];
    delete error.form;
  }
  return { status: "error", initialValue: values as never, error };
}

/** A missing record on a page: the 404 page. */
export function notFound(message = "Not Found"): Response {
  return new Response(message, { status: 404, statusText: "Not Found" });
}

/** The answer to a form posted with an intent its route does not list. */
export const UNKNOWN_INTENT = "Unknown action.";

/**
 * The intent a form was posted with (its `intent` field, or `fallback` when
 * the form has none), one of the route's `intents`; any other value is
 * answered 400, never guessed. Back-office actions use `requireIntent`
 * (auth.server), which adds the intent's permission.
 */
export function readIntent<I extends string>(
  form: FormData,
  intents: Readonly<Record<I, unknown>>,
  fallback?: NoInfer<I>,
): I {
  const sent = form.get("intent") ?? fallback ?? null;
  if (typeof sent !== "string" || !Object.hasOwn(intents, sent)) {
    throw new Response(UNKNOWN_INTENT, { status: 400, statusText: "Bad Request" });
  }
  return sent as I;
}

/** The methods of the API, in the order `Allow` names them. */
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;
export type Method = (typeof METHODS)[number];

/**
 * A method the call does not take: 405, `Allow` naming the ones it does (HEAD with GET), and the JSON
 * message. tests/integration/api-methods.test.ts sends every method to every call and holds `Allow` to
 * what each answers.
 */
export const methodNotAllowed = (...allow: [Method, ...Method[]]) =>
  Response.json(
    { message: "Method not allowed." },
    {
      status: 405,
      headers: {
        Allow: METHODS.filter((m) => allow.includes(m) || (m === "HEAD" && allow.includes("GET"))).join(", "),
      },
    },
  );

/**
 * Spec 000 §2: a pre-registration that cannot be loaded (missing, or out of
 * the user's reach) sends staff to /admin with the reason. Thrown by every
 * back-office pre-registration page in place of the 404 page.
 */
export async function preregistrationNotFound(failure?: Pick<Failure, "message">): Promise<Response> {
  return redirectWithToast("/admin", oops(failure?.message ?? "Pre-registration not found."));
}

type Parsed<S extends z.ZodType> =
  | { ok: true; value: z.output<S> }
  | { ok: false; reply: ReturnType<typeof data<{ result: SubmissionResult<string[]> }>> };

/** A form parsed with its shared schema, or the 422 reply with its field errors and the values typed (less `hide`). */
export function parseForm<S extends z.ZodType>(form: FormData, schema: S, { hide = [] }: Hidden = {}): Parsed<S> {
  const submission = parseWithZod(form, { schema });
  if (submission.status === "success") return { ok: true, value: submission.value as z.output<S> };
  const result = submission.reply({ hideFields: [...hide] }) as SubmissionResult<string[]>;
  return { ok: false, reply: data({ result }, { status: 422 }) };
}
