/**
 * What a form page shows again after a post: the text values (never a file,
 * never the single-use captcha answer or the honeypot), bounded, as conform's
 * `lastResult`; and the file of a multipart field, handed to a model explicitly.
 */
import type { SubmissionResult } from "@conform-to/react";
import { CAPTCHA_FIELD, HONEYPOT_FIELD } from "./captcha.server";

/** Fields a form never shows again: the step, the single-use captcha answer and the honeypot. */
const NOT_ECHOED = new Set(["intent", CAPTCHA_FIELD, HONEYPOT_FIELD]);

/** The text values of a post (never a file), bounded, for the form to show them again. */
export function echoForm(form: FormData): FormData {
  const out = new FormData();
  form.forEach((value, key) => {
    if (typeof value === "string" && !NOT_ECHOED.has(key) && value !== "") out.append(key, value.slice(0, 1000));
  });
  return out;
}

/** A conform result carrying the values of a post without errors (Go Back, the confirmation step). */
export function echoResult(form: FormData, override: Record<string, string | null> = {}): SubmissionResult<string[]> {
  const initialValue: Record<string, string> = {};
  echoForm(form).forEach((value, key) => {
    if (typeof value === "string") initialValue[key] = value;
  });
  for (const [key, value] of Object.entries(override)) {
    if (value === null) delete initialValue[key];
    else initialValue[key] = value;
  }
  return { initialValue };
}

/** The file of a multipart field, if one was sent. */
export function fileField(form: FormData | null, name: string): File | null {
  const value = form?.get(name);
  return value instanceof File && value.size > 0 ? value : null;
}
