/**
 * conform wiring shared by the counter forms: client validation with the same
 * zod schema the action parses with, server errors and re-filled values from
 * `lastResult` (so a post without JavaScript comes back with its values and
 * the errors under their fields).
 *
 * Nothing here remounts a field after the page has loaded (no keys that change
 * with an action's answer): a value typed while an answer or a navigation is
 * on its way stays in the field. Only an explicit reset (a Retry button of
 * type reset) clears the form.
 */
import { useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";

/** A counter form: conform's form and fields, validated with the action's schema. */
export function useCounterFields<S extends z.ZodType>(opts: {
  id: string;
  schema: S;
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: Record<string, unknown>;
}) {
  return useForm({
    id: opts.id,
    lastResult: opts.lastResult ?? undefined,
    defaultValue: opts.defaultValue as never,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: opts.schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
}
