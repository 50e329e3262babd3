/**
 * A destructive submit button that asks first. A disclosure, so the question
 * ("Are you sure?") works the same with and without JavaScript.
 */
import { Form } from "@remix-run/react";
import type { ButtonHTMLAttributes, ReactNode } from "react";

export function ConfirmSubmit({
  message,
  children,
  className,
  confirmLabel = "Yes",
  ...button
}: { message: string; children: ReactNode; confirmLabel?: string } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <details className="confirm">
      <summary className={`button ${className ?? ""}`}>{children}</summary>
      <div className="confirm-box" role="alertdialog" aria-label={message}>
        <p>{message}</p>
        <button type="submit" className={className} {...button}>
          {confirmLabel}
        </button>
      </div>
    </details>
  );
}

/** The record's Delete: a post of intent=delete to the page's own action, asked first. */
export function DeleteForm() {
  return (
    <Form method="post">
      <ConfirmSubmit name="intent" value="delete" className="danger" message="Are you sure?">
        Delete
      </ConfirmSubmit>
    </Form>
  );
}
