/**
 * The one outcome type of the models. A model function that can refuse returns
 * `{ ok: true, ...what it made } | Failure`; it never returns an HTTP status.
 * The routes turn a Failure into a page (app/http/http.server.ts `pageFailure`,
 * `replyFailure`) or a JSON answer (`apiFailure`), both through `failureStatus`,
 * so the same failure answers the same status in both.
 *
 * Inside a synchronous transaction, `throw new FailureError(failure)` rolls the
 * transaction back; `runTransaction` (db/index.ts callers) catches it and
 * returns the Failure.
 */

export type FailureCode =
  /** The input breaks a rule; `errors` names the fields. */
  | "invalid"
  /** No such record within the caller's reach. */
  | "not_found"
  /** The record's state forbids the change (already paid out, in use, already verified). */
  | "conflict"
  /** Wrong or missing credentials. */
  | "unauthenticated"
  /** The caller may not do this (no branch for a branch action, escalation). */
  | "forbidden"
  /** The campaign is closed for this action. */
  | "closed"
  /** Too many attempts; `retryAfterSeconds` says when to come back. */
  | "rate_limited"
  /** The body is larger than the call allows. */
  | "too_large"
  /** The body's content type is not one the call reads. */
  | "unsupported_type"
  /** The body could not be read (broken JSON, truncated multipart). */
  | "bad_request"
  /** An outside service (SMS gateway, captcha) did not answer. */
  | "unavailable";

/** Field → messages, the specification's error shape; messages without a field go under "form". */
export type FieldErrors = Record<string, string[]>;

export type Failure = {
  ok: false;
  code: FailureCode;
  message: string;
  errors: FieldErrors;
  retryAfterSeconds?: number;
};

export type Result<T extends object = object> = ({ ok: true } & T) | Failure;

function make(code: FailureCode, message: string, errors: FieldErrors = {}, extra: Partial<Failure> = {}): Failure {
  return { ok: false, code, message, errors, ...extra };
}

/** The first message of an errors map, for the failure's summary message. */
export function firstMessage(errors: FieldErrors, fallback = "The given data was invalid."): string {
  for (const list of Object.values(errors)) if (list?.length) return list[0];
  return fallback;
}

export const fail = {
  invalid: (errors: FieldErrors, message?: string) => make("invalid", message ?? firstMessage(errors), errors),
  /** One field's error. */
  field: (field: string, message: string) => make("invalid", message, { [field]: [message] }),
  notFound: (message = "Record not found.") => make("not_found", message),
  conflict: (message: string, errors: FieldErrors = {}) => make("conflict", message, errors),
  unauthenticated: (message: string) => make("unauthenticated", message, { form: [message] }),
  forbidden: (message: string) => make("forbidden", message, { form: [message] }),
  closed: (message: string) => make("closed", message, { form: [message] }),
  rateLimited: (retryAfterSeconds: number, message = tooManyMessage(retryAfterSeconds)) =>
    make("rate_limited", message, { form: [message] }, { retryAfterSeconds }),
  tooLarge: (message: string, field = "form") => make("too_large", message, { [field]: [message] }),
  unsupportedType: (message: string) => make("unsupported_type", message, { form: [message] }),
  badRequest: (message: string) => make("bad_request", message, { form: [message] }),
  unavailable: (message: string) => make("unavailable", message, { form: [message] }),
};

export const tooManyMessage = (seconds: number) =>
  `Too many attempts. Please try again in ${Math.max(1, Math.ceil(seconds / 60))} minute(s).`;

/** Thrown inside a synchronous transaction to roll it back with a Failure. */
export class FailureError extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
    this.name = "FailureError";
  }
}

/** The HTTP status of a failure, the same for pages and the API. */
export function failureStatus(failure: Pick<Failure, "code">): number {
  switch (failure.code) {
    case "invalid":
      return 422;
    case "not_found":
      return 404;
    case "conflict":
      return 409;
    case "unauthenticated":
      return 401;
    case "forbidden":
    case "closed":
      return 403;
    case "rate_limited":
      return 429;
    case "too_large":
      return 413;
    case "unsupported_type":
      return 415;
    case "bad_request":
      return 400;
    case "unavailable":
      return 503;
  }
}
