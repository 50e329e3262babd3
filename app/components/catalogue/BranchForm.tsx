/**
 * "Dealer Registration" (spec 001 §2.4): every field of a branch (§3), the
 * e-mail as an email input. State, district and city offer the values the
 * branches already use (datalists), so the public cascade stays clean; the
 * server also takes an existing place's spelling when only the letter case
 * differs. Errors are the server's, the first under each field (§5).
 */
import { useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { Field, FormError } from "~/components/Field";
import { str, type FormReply } from "./form";
import { SaveCancel } from "~/components/FormActions";

export type BranchValues = Record<string, string>;

type Props = {
  id: string;
  defaults: BranchValues;
  places: { states: string[]; districts: string[]; cities: string[] };
  reply?: FormReply;
  cancelTo: string;
};

function Options({ id, values }: { id: string; values: string[] }) {
  return (
    <datalist id={id}>
      {values.map((v) => (
        <option key={v} value={v} />
      ))}
    </datalist>
  );
}

export function BranchForm({ id, defaults, places, reply, cancelTo }: Props) {
  const [form, fields] = useForm({ id, lastResult: reply?.result, defaultValue: defaults });
  const field = (name: keyof typeof fields) => ({
    name,
    defaultValue: str(fields[name].initialValue) ?? "",
    errors: fields[name].errors,
  });
  return (
    <Form method="post" id={form.id} onSubmit={form.onSubmit} noValidate className="card catalogue-form">
      <FormError errors={form.errors} />
      <Field
        label="Name"
        required
        maxLength={100}
        autoComplete="organization"
        key={fields.title.key}
        {...field("title")}
      />
      <div className="grid-2">
        <Field
          label="State"
          required
          list={`${id}-states`}
          hint="Zone on the public site"
          autoComplete="off"
          key={fields.state.key}
          {...field("state")}
        />
        <Field
          label="District"
          required
          list={`${id}-districts`}
          autoComplete="off"
          key={fields.district.key}
          {...field("district")}
        />
        <Field
          label="City"
          required
          list={`${id}-cities`}
          autoComplete="off"
          key={fields.city.key}
          {...field("city")}
        />
        <Field label="Location" maxLength={200} key={fields.location.key} {...field("location")} />
      </div>
      <Options id={`${id}-states`} values={places.states} />
      <Options id={`${id}-districts`} values={places.districts} />
      <Options id={`${id}-cities`} values={places.cities} />
      <Field label="Email" type="email" autoComplete="email" key={fields.email.key} {...field("email")} />
      <div className="grid-2">
        <Field
          label="Phone"
          inputMode="tel"
          hint='Several numbers separated by "/"'
          autoComplete="off"
          key={fields.phone.key}
          {...field("phone")}
        />
        <Field
          label="Mobile"
          inputMode="tel"
          hint='10-digit mobiles starting with 9, separated by "/"'
          autoComplete="off"
          key={fields.mobile.key}
          {...field("mobile")}
        />
        <Field
          label="One Lakh Allocation"
          type="number"
          min={0}
          max={1000}
          step={1}
          inputMode="numeric"
          key={fields.one_lakh_allocation_count.key}
          {...field("one_lakh_allocation_count")}
        />
        <Field
          label="Ten Lakhs Allocation"
          type="number"
          min={0}
          max={1000}
          step={1}
          inputMode="numeric"
          key={fields.ten_lakhs_allocation_count.key}
          {...field("ten_lakhs_allocation_count")}
        />
      </div>
      <SaveCancel cancelTo={cancelTo} />
    </Form>
  );
}
