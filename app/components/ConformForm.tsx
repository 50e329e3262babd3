/**
 * A back-office form: a plain POST to its route with conform's id and submit
 * handler, checked by the server alone (noValidate, spec 001 §5), the
 * form-level error at its top.
 */
import { Form } from "@remix-run/react";
import type { FormEventHandler, ReactNode } from "react";
import { FormError } from "./Field";

type ConformFormMeta = { id: string; onSubmit: FormEventHandler<HTMLFormElement>; errors?: string[] };

export function ConformForm({
  form,
  upload = false,
  className,
  children,
}: {
  form: ConformFormMeta;
  /** The form carries a file (multipart). */
  upload?: boolean;
  className: string;
  children: ReactNode;
}) {
  return (
    <Form
      method="post"
      id={form.id}
      onSubmit={form.onSubmit}
      noValidate
      encType={upload ? "multipart/form-data" : undefined}
      className={className}
    >
      <FormError errors={form.errors} />
      {children}
    </Form>
  );
}
