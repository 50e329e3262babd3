/**
 * The counter's code step, for a pre-registration's verification and a purchase's confirmation:
 * whom the code went to, the form's error, the code field, a notice (a new code sent, or when),
 * and the buttons: the step itself, Resend code, Retry after a wrong code, Go Back.
 */
import { Form, Link } from "@remix-run/react";
import type { getFormProps } from "@conform-to/react";
import type { ReactNode } from "react";
import { FormError } from "~/components/Field";

export function CodeCard({
  title,
  what,
  name,
  phone,
  formProps,
  formErrors,
  field,
  notice,
  submitLabel,
  retry = false,
  backTo,
}: {
  title: string;
  /** "verification" or "confirmation": the code that was sent. */
  what: string;
  name: string;
  phone: string;
  formProps: ReturnType<typeof getFormProps>;
  formErrors?: string[];
  /** The code field (its own key, label and errors). */
  field: ReactNode;
  notice?: string | null;
  submitLabel: string;
  /** Offer Retry (an empty field), after a wrong code. */
  retry?: boolean;
  backTo: string;
}) {
  return (
    <>
      <h1>{title}</h1>
      <div className={`card narrow${retry ? " mismatch" : ""}`}>
        <p>
          A {what} code was sent by SMS to <strong>{name}</strong> ({phone}).
        </p>
        <Form method="post" replace {...formProps}>
          <FormError errors={formErrors} />
          {field}
          {notice ? (
            <p className="notice" role="status">
              {notice}
            </p>
          ) : null}
          <div className="actions">
            <button type="submit" name="intent" value="verify" className="primary">
              {submitLabel}
            </button>
            <button type="submit" name="intent" value="resend" formNoValidate>
              Resend code
            </button>
            {retry ? <button type="reset">Retry</button> : null}
            <Link to={backTo} className="button">
              Go Back
            </Link>
          </div>
        </Form>
      </div>
    </>
  );
}
