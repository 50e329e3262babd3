/**
 * "Dealer Registration" (spec 001 §2.4): every field of a branch (§3), the
 * e-mail as an email input. State, district and city offer the values the
 * branches already use (datalists), so the public cascade stays clean; the
 * server also takes an existing place's spelling when only the letter case
 * differs. Errors are the server's, the first under each field (§5).
 */
import { useForm } from "@conform-to/react";
import { Field, WholeNumberField } from "~/components/Field";
import { ConformForm } from "~/components/ConformForm";
import type { FormReply } from "./form";
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
  return (
    <ConformForm form={form} className="card catalogue-form">
      <Field meta={fields.title} label="Name" required maxLength={100} autoComplete="organization" />
      <div className="grid-2">
        <Field
          meta={fields.state}
          label="State"
          required
          list={`${id}-states`}
          hint="Zone on the public site"
          autoComplete="off"
        />
        <Field meta={fields.district} label="District" required list={`${id}-districts`} autoComplete="off" />
        <Field meta={fields.city} label="City" required list={`${id}-cities`} autoComplete="off" />
        <Field meta={fields.location} label="Location" maxLength={200} />
      </div>
      <Options id={`${id}-states`} values={places.states} />
      <Options id={`${id}-districts`} values={places.districts} />
      <Options id={`${id}-cities`} values={places.cities} />
      <Field meta={fields.email} label="Email" type="email" autoComplete="email" />
      <div className="grid-2">
        <Field
          meta={fields.phone}
          label="Phone"
          inputMode="tel"
          hint='Several numbers separated by "/"'
          autoComplete="off"
        />
        <Field
          meta={fields.mobile}
          label="Mobile"
          inputMode="tel"
          hint='10-digit mobiles starting with 9, separated by "/"'
          autoComplete="off"
        />
        <WholeNumberField meta={fields.one_lakh_allocation_count} label="One Lakh Allocation" min={0} max={1000} />
        <WholeNumberField meta={fields.ten_lakhs_allocation_count} label="Ten Lakhs Allocation" min={0} max={1000} />
      </div>
      <SaveCancel cancelTo={cancelTo} />
    </ConformForm>
  );
}
