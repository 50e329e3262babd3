/**
 * The fields of the registration (purchase) form, shared by create and edit
 * (spec 000 §3 and §5), on conform's field metadata (ids, names, values sent
 * back and the server's errors through lastResult). Engine, chassis and
 * vehicle numbers keep letters, digits, - . _ and are upper-cased as they are
 * typed (and again on the server); the referrer field suggests registered
 * customers with JavaScript and takes a customer's phone number without it.
 */
import {
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useRef, useState } from "react";
import type { z } from "zod";
import { Field, FieldError, SelectField, TextareaField } from "~/components/Field";
import {
  emailChars,
  PAYMENT_MODE_LABELS,
  REGISTRATION_FIELD_LABELS,
  PAYMENT_MODES,
  vehicleNumber,
  type registrationSchema,
  type registrationUpdateSchema,
} from "~/schemas/registration";
import { titledOptions } from "~/utils/options";

/** The form's fields as conform sees them (create adds its form token as a hidden input). */
export type RegistrationFormShape = z.input<typeof registrationSchema>;
type Fields = ReturnType<typeof useForm<RegistrationFormShape>>[1];
type Meta = FieldMetadata<unknown, RegistrationFormShape, string[]>;

/**
 * conform for the registration forms: the same zod schema in the browser (on
 * blur, then as typed) as in the action; the action's lastResult brings the
 * values sent and the errors back (also without JavaScript).
 */
export function useRegistrationForm(opts: {
  id: string;
  schema: typeof registrationSchema | typeof registrationUpdateSchema;
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue: Record<string, string>;
}) {
  return useForm<RegistrationFormShape>({
    id: opts.id,
    lastResult: opts.lastResult,
    defaultValue: opts.defaultValue,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: opts.schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
}

const filterInput = (fn: (v: string) => string) => (e: React.FormEvent<HTMLInputElement>) => {
  const el = e.currentTarget;
  const next = fn(el.value);
  if (next !== el.value) el.value = next;
};

type Option = { value: number | null; label: string; slug: string | null; phone: string };

function ReferrerField({ field, other }: { field: Meta; other: Meta }) {
  const [options, setOptions] = useState<Option[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const search = (q: string) => {
    clearTimeout(timer.current);
    if (q.trim().length < 3) return setOptions([]);
    timer.current = setTimeout(async () => {
      const res = await fetch("/api/v1/registration/search", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ q }),
      }).catch(() => null);
      if (res?.ok) setOptions(((await res.json()) as { data: Option[] }).data);
    }, 250);
  };
  return (
    <>
      <Field
        {...getInputProps(field, { type: "text", ariaDescribedBy: `${field.id}-hint` })}
        label="Referred by (a registered customer's phone)"
        list="referrer-options"
        autoComplete="off"
        errors={field.errors ?? other.errors}
        onInput={(e) => search(e.currentTarget.value)}
        hint="Suggestions come as you type your branch's customer's name, phone or bill number; a customer of another branch is found by their full phone."
      />
      <datalist id="referrer-options">
        {options.map((o) => (
          <option key={o.value ?? o.phone} value={o.phone}>
            {o.label}
          </option>
        ))}
      </datalist>
    </>
  );
}

export function RegistrationFields({
  fields,
  branchId,
  phone,
  purchaseDate,
  bikeModels,
}: {
  fields: Fields;
  branchId: number | null;
  phone: string;
  purchaseDate: string;
  bikeModels: { id: number; title: string }[];
}) {
  const bill = fields.bill_no;
  return (
    <div className="form-grid">
      <Field
        label="Date of Purchase"
        name="purchase_date_display"
        value={purchaseDate.replaceAll("-", "/")}
        readOnly
        disabled
        hint="Today, set by the system."
      />
      <div className={`field${bill.errors?.length ? " invalid" : ""}`}>
        <label htmlFor={bill.id}>
          {REGISTRATION_FIELD_LABELS.bill_no}
          <span className="req"> *</span>
        </label>
        <div className="prefixed">
          {branchId !== null ? <span className="prefix">B{branchId}-</span> : null}
          <input {...getInputProps(bill, { type: "text" })} required />
        </div>
        <FieldError id={bill.errorId} errors={bill.errors} />
      </div>
      <Field
        {...getInputProps(fields.name, { type: "text" })}
        label={REGISTRATION_FIELD_LABELS.name}
        required
        errors={fields.name.errors}
      />
      <Field
        {...getInputProps(fields.address, { type: "text" })}
        label="Address"
        required
        errors={fields.address.errors}
      />
      <Field
        {...getInputProps(fields.email, { type: "email" })}
        label="Email"
        errors={fields.email.errors}
        onInput={filterInput(emailChars)}
      />
      <Field
        label="Phone Number"
        name="phone"
        value={phone}
        readOnly
        hint="The verified phone of the pre-registration."
      />
      <Field
        {...getInputProps(fields.citizenship_no, { type: "text" })}
        label="Citizenship No"
        required
        errors={fields.citizenship_no.errors}
      />
      <Field {...getInputProps(fields.pan, { type: "text" })} label="PAN" errors={fields.pan.errors} />
      <SelectField
        {...getSelectProps(fields.bike_model_id)}
        label="Bike Model"
        required
        placeholder="Select a model"
        options={titledOptions(bikeModels)}
        errors={fields.bike_model_id.errors}
      />
      {(
        [
          [fields.engine_no, REGISTRATION_FIELD_LABELS.engine_no],
          [fields.chasis_no, REGISTRATION_FIELD_LABELS.chasis_no],
          [fields.registration_no, REGISTRATION_FIELD_LABELS.registration_no],
        ] as const
      ).map(([field, label]) => (
        <Field
          {...getInputProps(field, { type: "text" })}
          key={field.name}
          label={label}
          required
          errors={field.errors}
          onInput={filterInput(vehicleNumber)}
          className="upper"
        />
      ))}
      <SelectField
        {...getSelectProps(fields.payment_mode)}
        label="Payment Mode"
        required
        options={PAYMENT_MODES.map((m) => ({ value: m, label: PAYMENT_MODE_LABELS[m] }))}
        errors={fields.payment_mode.errors}
      />
      <ReferrerField field={fields.referrer} other={fields.registration_id} />
      <TextareaField {...getTextareaProps(fields.note)} label="Note" rows={2} errors={fields.note.errors} />
      <label className="check">
        <input {...getInputProps(fields.send_sms, { type: "checkbox" })} /> Send the customer an SMS with the prize
        summary after the draw
      </label>
    </div>
  );
}
