/** Shared pieces of the public enquiry routes: form values echoed back, request size guard, failure status. */
import type { Failure } from "~/models/preregistration.server";
import { PREREG_FIELDS, type PreregFormValues } from "./PreregistrationForm";

/** A multipart body above this is refused before it is read (10 MB image plus the text fields). */
export const MAX_ENQUIRY_BODY = 11 * 1024 * 1024;

export function tooLarge(request: Request): boolean {
  const length = Number(request.headers.get("Content-Length") ?? 0);
  return Number.isFinite(length) && length > MAX_ENQUIRY_BODY;
}

/** The submitted text values (never the file), to fill the form again. */
export function formValues(form: FormData): PreregFormValues {
  const out: PreregFormValues = {};
  for (const k of PREREG_FIELDS) {
    const v = form.get(k);
    if (typeof v === "string" && v !== "") out[k] = k === "shared" ? "on" : v.slice(0, 1000);
  }
  return out;
}

export function failureStatus(failure: Failure): number {
  switch (failure.reason) {
    case "rate_limited":
      return 429;
    case "closed":
      return 403;
    case "upload":
      return 422;
    default:
      return 400;
  }
}

/** The JSON API's status for a refused pre-registration: 403 closed, 429 rate limited, else 422. */
export function apiFailureStatus(failure: Failure): number {
  if (failure.reason === "closed") return 403;
  if (failure.reason === "rate_limited") return 429;
  return 422;
}
